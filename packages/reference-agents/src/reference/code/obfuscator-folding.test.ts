import { describe, expect, it } from 'vitest';
import { javascriptFacts } from './javascript/index.js';
import { pythonFacts } from './python-facts.js';

describe('JavaScript folding of obfuscator shapes', () => {
  it('folds spread and Array.from reversals into module and method names', () => {
    const facts = javascriptFacts(`
      const cp = require([...'ssecorp_dlihc'].reverse().join(''));
      cp[Array.from('cexe').reverse().join('')]('id');
    `);
    expect(facts.imports.map((i) => i.module)).toContain('child_process');
    expect(facts.calls.map((c) => c.callee)).toContain('child_process.exec');
  });

  it('folds String.fromCharCode(...codes) and codes.map(c => String.fromCharCode(c ^ k))', () => {
    const codes = [...'https'].map((c) => c.charCodeAt(0));
    const xored = [...'request'].map((c) => c.charCodeAt(0) ^ 7);
    const facts = javascriptFacts(`
      const a = [${codes.join(', ')}];
      const mod = require(String.fromCharCode(...a));
      const b = [${xored.join(', ')}];
      mod[b.map((c) => String.fromCharCode(c ^ 7)).join('')]({ hostname: 'x.example' });
    `);
    expect(facts.calls.map((c) => c.callee)).toContain('https.request');
  });

  it('puts a shuffled string table back in order (order.map(i => parts[i]).join(""))', () => {
    const facts = javascriptFacts(`
      const parts = ['ild_pr', 'ocess', 'ch'];
      const order = [2, 0, 1];
      const name = order.map((i) => parts[i]).join('');
      require(name).execSync('id');
      const url = [1, 0].map(function (i) { return ['203.0.113.9/x', 'http://'][i]; }).join('');
    `);
    expect(facts.calls.map((c) => c.callee)).toContain('child_process.execSync');
    expect(facts.strings.find((s) => s.decoded && s.value === 'http://203.0.113.9/x')).toBeDefined();
  });

  it('leaves a callback it cannot evaluate, and a minifier-style reverse utility on variables, unfolded', () => {
    const facts = javascriptFacts(`
      const reverse = (s) => s.split('').reverse().join('');
      export const palindrome = (s) => reverse(s) === s;
      const xs = [1, 2, 3].map((x) => x * 2).join(',');
    `);
    expect(facts.strings.filter((s) => s.decoded)).toEqual([]);
  });
});

describe('Python folding of obfuscator shapes', () => {
  it('folds [::-1] and "".join(reversed(...)) into names reached through getattr and import_module', () => {
    const facts = pythonFacts(`import importlib
m = importlib.import_module('ssecorpbus'[::-1])
getattr(m, ''.join(reversed('nepoP')))(['sh', '-c', 'id'])
`);
    expect(facts.calls.map((c) => c.callee)).toContain('subprocess.Popen');
    expect(facts.hiddenNames.map((h) => h.name)).toContain('Popen');
    expect(facts.strings.find((s) => s.decoded && s.value === 'Popen')).toBeDefined();
  });
});
