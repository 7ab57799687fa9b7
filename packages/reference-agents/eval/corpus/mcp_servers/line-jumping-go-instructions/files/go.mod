module example.net/mcp

go 1.22
