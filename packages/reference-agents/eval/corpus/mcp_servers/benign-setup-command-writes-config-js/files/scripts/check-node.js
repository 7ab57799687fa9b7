const [major] = process.versions.node.split('.').map(Number);
if (major < 18) {
  console.error('weather-mcp needs Node 18 or later');
  process.exit(1);
}
