'use strict';
// Run detached by the dev server: `node flush-worker.js <projectDir> [batchName]`.
const fs = require('fs');
const path = require('path');
const { Insights } = require('./insights');

async function main() {
  const [projectDir, batchName] = process.argv.slice(2);
  if (!projectDir) throw new Error('usage: flush-worker <projectDir> [batchName]');
  const outDir = path.resolve(projectDir, '.orbit');
  // A bare batch name lives under the cache folder; anything with a separator falls back to the default file.
  const batchPath = batchName && !batchName.includes('/') ? path.join(outDir, 'cache', batchName) : path.join(outDir, 'insights.json');
  let events;
  try {
    events = JSON.parse(fs.readFileSync(batchPath, 'utf8'));
  } catch (err) {
    if (err.code === 'ENOENT') return;
    throw err;
  }
  const insights = new Insights({ outDir });
  await insights.record(events);
  await insights.flush();
  // The batch was sent: remove it so it is not sent twice.
  fs.unlinkSync(batchPath);
}

main();
