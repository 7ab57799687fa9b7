module example.com/kb-mcp

go 1.22

require github.com/mark3labs/mcp-go v0.20.0
