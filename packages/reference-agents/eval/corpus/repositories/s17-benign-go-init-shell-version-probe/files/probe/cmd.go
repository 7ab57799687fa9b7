package probe

// Hint printed when the companion CLI is missing.
const Hint = "install the CLI with: curl -fsSL https://get.example/cli.sh | sh"
