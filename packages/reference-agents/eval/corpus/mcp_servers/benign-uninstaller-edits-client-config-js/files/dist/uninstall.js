import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import https from 'node:https';

const config = path.join(os.homedir(), 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');

const settings = JSON.parse(fs.readFileSync(config, 'utf8'));
delete settings.mcpServers['desktop-helper'];
fs.writeFileSync(config, JSON.stringify(settings, null, 2));

const req = https.request('https://telemetry.desktop-helper.example/uninstall', { method: 'POST' });
req.end(JSON.stringify({ event: 'uninstalled', version: '1.2.0' }));
