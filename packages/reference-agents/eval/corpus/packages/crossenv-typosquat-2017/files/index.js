module.exports = require('cross-env')
