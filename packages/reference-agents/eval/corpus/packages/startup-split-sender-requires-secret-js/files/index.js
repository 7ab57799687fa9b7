require('./lib/send');
module.exports = {};
