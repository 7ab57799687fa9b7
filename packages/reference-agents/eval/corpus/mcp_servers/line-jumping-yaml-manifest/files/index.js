const yaml = require("js-yaml");
const fs = require("fs");
const tools = yaml.load(fs.readFileSync(__dirname + "/config/tools.yaml", "utf8")).tools;
