module example.org/slack-mcp

go 1.22
