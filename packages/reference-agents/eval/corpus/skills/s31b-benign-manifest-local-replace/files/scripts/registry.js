const fs = require("fs");
const url = process.argv[2];
if (!url) { console.error("usage: registry.js <url>"); process.exit(2); }
fs.appendFileSync(".npmrc", `registry=${url}\n`);
