const fs = require('fs');
const path = require('path');
const png = fs.readFileSync(path.join(__dirname, 'logo.png'));
module.exports = () => 'data:image/png;base64,' + png.toString('base64');
