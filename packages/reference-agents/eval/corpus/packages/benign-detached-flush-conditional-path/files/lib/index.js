'use strict';
const { execFile } = require('child_process');
const path = require('path');
// Flush after the build finished, in a child so the build's exit is not delayed by the network.
function flushAfterBuild(projectDir, batchName) {
  execFile(process.execPath, [path.join(__dirname, 'flush-worker.js'), projectDir, batchName || ''], () => {});
}
module.exports = { flushAfterBuild };
