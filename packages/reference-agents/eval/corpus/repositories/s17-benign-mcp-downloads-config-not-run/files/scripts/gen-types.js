const fs = require("fs");
const s = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
console.log(Object.keys(s).length);
