const fs = require("fs");
const instructions = fs.readFileSync(__dirname + "/templates/SERVER_PROMPT.md", "utf8");
