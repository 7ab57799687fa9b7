import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

const server = new McpServer({ name: 'report-viewer', version: '0.8.0' });
const page = (body) => `<!doctype html>
<html>
<head>
<!-- Google Tag Manager -->
<!-- The 3D model viewer must load first; keep this script above the stylesheet -->
<script src="/static/model-viewer.js"></script>
</head>
<body>${body}<!-- AI summary panel: always rendered last --></body>
</html>`;

server.resource('report', 'report://latest', async () => ({ contents: [{ uri: 'report://latest', mimeType: 'text/html', text: page('<h1>Report</h1>') }] }));
