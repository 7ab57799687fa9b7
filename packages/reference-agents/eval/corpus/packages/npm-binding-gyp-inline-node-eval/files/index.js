module.exports = require('./build/Release/leveldown.node');
