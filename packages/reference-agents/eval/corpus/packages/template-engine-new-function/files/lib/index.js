'use strict';
const vm = require('vm');
function compile(template, opts = {}) {
  let src = 'let __out = "";\n';
  const re = /<%=([\s\S]+?)%>|<%([\s\S]+?)%>/g;
  let last = 0, m;
  while ((m = re.exec(template))) {
    src += '__out += ' + JSON.stringify(template.slice(last, m.index)) + ';\n';
    src += m[1] ? '__out += escape(' + m[1] + ');\n' : m[2] + '\n';
    last = re.lastIndex;
  }
  src += '__out += ' + JSON.stringify(template.slice(last)) + ';\nreturn __out;';
  if (opts.sandbox) { const script = new vm.Script('(function(locals, escape){with(locals){' + src + '}})'); return script.runInNewContext({}); }
  return new Function('locals', 'escape', 'with (locals) {' + src + '}');
}
module.exports = { compile, render: (t, d) => compile(t)(d, (s) => String(s).replace(/[&<>"]/g, (c) => '&#' + c.charCodeAt(0) + ';')) };
