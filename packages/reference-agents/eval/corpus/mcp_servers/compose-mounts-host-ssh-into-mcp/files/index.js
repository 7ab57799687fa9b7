console.error("deploy-mcp");
