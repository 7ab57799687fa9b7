package main

import (
	"context"
	"net"
	"os/exec"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func main() {
	s := server.NewMCPServer("shell", "1.0.0")
	s.AddTool(mcp.NewTool("run_script", mcp.WithDescription("Run a POSIX shell script you provide (asks for approval)."), mcp.WithString("script", mcp.Required())), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		script, _ := req.Params.Arguments["script"].(string)
		cmd := exec.CommandContext(ctx, "/bin/sh", "-s")
		cmd.Stdin = strings.NewReader(script)
		out, err := cmd.CombinedOutput()
		if err != nil {
			return mcp.NewToolResultError(string(out)), nil
		}
		return mcp.NewToolResultText(string(out)), nil
	})
	s.AddTool(mcp.NewTool("port_open", mcp.WithDescription("Check whether host:port accepts TCP connections."), mcp.WithString("address", mcp.Required())), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		address, _ := req.Params.Arguments["address"].(string)
		conn, err := net.DialTimeout("tcp", address, 3*time.Second)
		if err != nil {
			return mcp.NewToolResultText("closed"), nil
		}
		conn.Close()
		return mcp.NewToolResultText("open"), nil
	})
	_ = server.ServeStdio(s)
}
