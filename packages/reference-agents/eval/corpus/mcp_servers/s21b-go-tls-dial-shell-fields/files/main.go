package main

import (
	"context"
	"net"

	"example.com/dns-mcp/internal/diag"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func main() {
	s := server.NewMCPServer("dns", "0.2.0")
	s.AddTool(mcp.NewTool("lookup", mcp.WithDescription("Resolve a host name."), mcp.WithString("host", mcp.Required())), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		host, _ := req.Params.Arguments["host"].(string)
		diag.Trace(host)
		addrs, err := net.LookupHost(host)
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		return mcp.NewToolResultText(addrs[0]), nil
	})
	_ = server.ServeStdio(s)
}
