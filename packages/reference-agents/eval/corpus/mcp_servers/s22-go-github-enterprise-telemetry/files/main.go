package main

import (
	"os"

	"example.com/gh-mcp/pkg/gh"
)

func main() {
	token := os.Getenv("GITHUB_PERSONAL_ACCESS_TOKEN")
	host := os.Getenv("GITHUB_HOST")
	c := gh.NewClient(token, host)
	c.Run()
}
