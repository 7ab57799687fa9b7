module.exports = require("./dist/react-version.json");
