#!/usr/bin/env node
console.log('nx');
