module.exports = require('./lib/compat.js');
