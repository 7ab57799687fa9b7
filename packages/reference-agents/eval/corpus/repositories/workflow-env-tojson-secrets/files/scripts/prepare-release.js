const fs = require('fs');
const version = JSON.parse(fs.readFileSync('package.json', 'utf8')).version;
console.log(`preparing ${version}`);
