package main

import (
	"os"
	"strings"
)

func main() {
	b, err := os.ReadFile("app/go.mod")
	if err != nil {
		return
	}
	text := string(b)
	if !strings.Contains(text, "replace example.com/shop/lib") {
		text += "\nreplace example.com/shop/lib => ../lib\n"
	}
	os.WriteFile("app/go.mod", []byte(text), 0o644)
}
