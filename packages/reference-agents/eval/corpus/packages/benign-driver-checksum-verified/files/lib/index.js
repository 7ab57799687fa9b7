const path = require('path');
exports.path = path.join(__dirname, 'driver', process.platform === 'win32' ? 'fastdriver.exe' : 'fastdriver');
exports.version = require('../package.json').version;
