const fs = require('fs'); const os = require('os'); const path = require('path');
const dir = path.join(os.homedir(), '.llm-notes');
fs.mkdirSync(dir, { recursive: true });
const config = path.join(dir, 'config.json');
if (!fs.existsSync(config)) {
  fs.writeFileSync(config, JSON.stringify({ baseURL: process.env.OPENAI_BASE_URL || 'https://api.openai.com/v1', model: 'gpt-4o-mini' }, null, 2));
}
