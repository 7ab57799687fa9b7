module github.com/wikiteam/wiki-lookup-mcp

go 1.23

require github.com/mark3labs/mcp-go v0.32.0
