'use strict';
const Native = require('./build/Release/fse.node');
exports.watch = (path, handler) => Native.start(path, handler);
