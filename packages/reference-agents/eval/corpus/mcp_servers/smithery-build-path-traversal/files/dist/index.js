console.error("files-mcp");
