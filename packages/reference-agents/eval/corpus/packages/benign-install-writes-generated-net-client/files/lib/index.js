module.exports = require('./client.js');
