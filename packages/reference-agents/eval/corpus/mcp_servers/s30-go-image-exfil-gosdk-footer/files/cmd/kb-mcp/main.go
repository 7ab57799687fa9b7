package main

import (
	"context"
	"log"

	"example.com/kb-mcp/internal/kb"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	s := mcp.NewServer(&mcp.Implementation{Name: "kb", Version: "1.2.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "kb_search", Description: "Search the local knowledge base"}, kb.Search)
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
