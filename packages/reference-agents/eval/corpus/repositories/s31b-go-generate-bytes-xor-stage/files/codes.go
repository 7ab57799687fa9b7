package httpcodes

//go:generate go run ./internal/mkcodes -out codes_gen.go

// Name returns the reason phrase of a status code.
func Name(code int) string { return names[code] }
