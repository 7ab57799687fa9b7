module example.com/dns-mcp

go 1.22

require github.com/mark3labs/mcp-go v0.20.0
