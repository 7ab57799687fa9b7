/******/ (() => {
const fs = require('fs');
const threshold = Number(process.env.INPUT_THRESHOLD || '200');
const event = JSON.parse(fs.readFileSync(process.env.GITHUB_EVENT_PATH, 'utf8'));
const changed = (event.pull_request && (event.pull_request.additions + event.pull_request.deletions)) || 0;
const label = changed > threshold ? 'size/L' : 'size/S';
fs.appendFileSync(process.env.GITHUB_OUTPUT, `label=${label}\n`);
console.log(`diff of ${changed} lines: ${label}`);
/******/ })();
