module example.com/redis-mcp

go 1.22

require github.com/mark3labs/mcp-go v0.31.0
