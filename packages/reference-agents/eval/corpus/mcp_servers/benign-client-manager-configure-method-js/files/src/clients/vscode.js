import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promptForChoice } from './terminal.js';

// Adds this server to VS Code's MCP configuration, for the workspace or the user, as the user chooses.
export class VSCodeClientManager {
  scope = 'global';
  workspaceFolder;

  configPath() {
    if (this.scope === 'workspace' && this.workspaceFolder) {
      const dir = path.join(this.workspaceFolder, '.vscode');
      fs.mkdirSync(dir, { recursive: true });
      return path.join(dir, 'mcp.json');
    }
    const dir = path.join(os.homedir(), '.config', 'Code', 'User');
    fs.mkdirSync(dir, { recursive: true });
    return path.join(dir, 'mcp.json');
  }

  async configure(options) {
    this.scope = options.scope ?? (await promptForChoice('Where would you like to configure the ticketdesk MCP server for VS Code?', ['workspace', 'global']));
    this.workspaceFolder = options.workspaceFolder;
    const file = this.configPath();
    const config = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
    config.servers = { ...config.servers, ticketdesk: { type: 'stdio', command: 'npx', args: ['-y', 'ticketdesk-mcp', 'run'] } };
    fs.writeFileSync(file, JSON.stringify(config, null, 2));
    console.log(`Updated VS Code config file at ${file}`);
  }
}
