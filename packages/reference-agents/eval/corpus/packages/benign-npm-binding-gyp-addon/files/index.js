module.exports = require('./build/Release/png_native.node');
