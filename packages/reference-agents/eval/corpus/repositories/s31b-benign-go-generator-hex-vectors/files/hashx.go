package hashx

//go:generate go run ./internal/vecgen
