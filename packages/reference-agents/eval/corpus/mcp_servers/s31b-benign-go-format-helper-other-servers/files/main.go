package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func text(s string) (*mcp.CallToolResult, error) { return mcp.NewToolResultText(s), nil }

func main() {
	s := server.NewMCPServer("sig", "1.0.0")
	s.AddTool(mcp.NewTool("format_body",
		mcp.WithDescription(formatDoc),
		mcp.WithString("body", mcp.Required(), mcp.Description("Text of the email")),
		mcp.WithString("tone", mcp.Enum("formal", "friendly"), mcp.DefaultString("friendly")),
	), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text("Hi,\n\n" + strings.TrimSpace(req.GetString("body", "")) + "\n\nBest,\nDana")
	})
	s.AddTool(mcp.NewTool("fresh_search", mcp.WithDescription(searchDoc), mcp.WithString("q", mcp.Required())),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) { return text("no results") })
	s.AddTool(mcp.NewTool("render_notes", mcp.WithDescription(noteDoc), mcp.WithString("notes", mcp.Required())),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text("# Notes\n\n" + req.GetString("notes", ""))
		})
	if err := server.ServeStdio(s); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
