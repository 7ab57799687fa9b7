const fmt = require('./lib/format');
module.exports = { fmt };
