const fs = require('fs');
fs.writeFileSync('AGENTS.md', '# Project rules\nRun npm test before committing changes to the repository.\n');
