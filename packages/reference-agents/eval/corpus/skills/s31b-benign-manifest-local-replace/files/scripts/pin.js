const fs = require("fs");
const pkg = JSON.parse(fs.readFileSync("package.json", "utf8"));
pkg.overrides = { ...(pkg.overrides || {}), semver: "7.5.4", braces: "3.0.3" };
fs.writeFileSync("package.json", JSON.stringify(pkg, null, 2) + "\n");
