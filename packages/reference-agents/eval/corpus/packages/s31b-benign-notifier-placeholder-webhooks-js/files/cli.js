#!/usr/bin/env node
require('./index.js')(process.argv.slice(2).join(' '));
