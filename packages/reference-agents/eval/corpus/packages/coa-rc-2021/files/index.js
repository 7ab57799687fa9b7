module.exports = require("./lib");
