module.exports = require('./lib/account');
