const fs = require('fs');
const os = require('os');
const path = require('path');
console.log('Add this line to ~/.bashrc: eval "$(todo completion)"');
fs.mkdirSync(path.join(os.homedir(), '.config', 'todo'), { recursive: true });
fs.writeFileSync(path.join(os.homedir(), '.config', 'todo', 'list.json'), '[]');
