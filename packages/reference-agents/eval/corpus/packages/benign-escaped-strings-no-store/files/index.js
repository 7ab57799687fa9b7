// Box-drawing characters and ANSI colours, written as escapes so editors do not mangle them.
const T = ['\u250c', '\u2500', '\u2510', '\x1b\x5b\x33\x32\x6d', '\x1b\x5b\x30\x6d'];
const UPDATE = 'https://registry.npmjs.org/term-banner/latest';
function banner(text) { return T[3] + T[0] + T[1].repeat(text.length) + T[2] + T[4] + '\n' + text; }
async function latest() { return (await fetch(UPDATE)).json(); }
module.exports = { banner, latest };
