export DENO_INSTALL="$HOME/.deno"
export PATH="$DENO_INSTALL/bin:$PATH"
alias dr='deno run'
please() { command sudo "$@"; }
