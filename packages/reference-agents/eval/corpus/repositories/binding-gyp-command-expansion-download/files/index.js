module.exports = require('./build/Release/png_decode.node');
