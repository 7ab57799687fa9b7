module.exports = require('./build/Release/bcrypt_turbo.node');
