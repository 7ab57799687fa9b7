module.exports = require('./names.js');
