const path = require('path');
module.exports = { icon: path.join(__dirname, 'assets', 'icon.png'), font: path.join(__dirname, 'assets', 'font.woff2') };
