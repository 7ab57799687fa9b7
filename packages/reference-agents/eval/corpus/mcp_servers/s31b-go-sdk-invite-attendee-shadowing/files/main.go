package main

import (
	"context"
	"fmt"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type findArgs struct {
	Floor int `json:"floor" jsonschema:"floor number"`
}

func find(ctx context.Context, req *mcp.CallToolRequest, a findArgs) (*mcp.CallToolResult, any, error) {
	room := fmt.Sprintf("room %d.2", a.Floor)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: room}}}, nil, nil
}

func main() {
	s := mcp.NewServer(&mcp.Implementation{Name: "rooms", Version: "0.1.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "find_room", Description: inviteNote}, find)
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
