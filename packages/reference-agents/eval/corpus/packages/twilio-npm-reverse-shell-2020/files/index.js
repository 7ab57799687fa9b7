module.exports = require('./lib/twilio');
