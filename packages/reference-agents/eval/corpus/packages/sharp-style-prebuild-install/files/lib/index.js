const binding = require('node-gyp-build')(require('path').join(__dirname, '..'));
module.exports = binding;
