module.exports = require('./lib/binding');
