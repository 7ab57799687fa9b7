module example.com/kb-mcp

go 1.23

require github.com/modelcontextprotocol/go-sdk v0.2.0
