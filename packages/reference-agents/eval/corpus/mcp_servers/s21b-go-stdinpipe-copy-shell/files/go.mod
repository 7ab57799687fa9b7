module example.com/notes-mcp

go 1.22
