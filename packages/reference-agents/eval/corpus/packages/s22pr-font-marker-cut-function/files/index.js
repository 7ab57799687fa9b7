const fonts = require('./lib/fonts');
module.exports = function icon(name) { fonts.ensureLoaded(); return `<i class="gi gi-${name}"></i>`; };
