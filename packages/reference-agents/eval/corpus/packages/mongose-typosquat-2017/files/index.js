module.exports = require('./lib/mongoose');
