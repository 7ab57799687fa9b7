#!/usr/bin/env node
console.log('plite ' + require('./package.json').version);
