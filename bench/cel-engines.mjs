// Compares the two maintained CEL implementations for Node (docs/policies.md, "Why this CEL
// implementation"): cel-spec conformance on the core cases both can run without protobuf messages,
// and the time to compile and evaluate a typical policy rule. Prints @marcbachmann/cel-js's numbers
// as ratios of @bufbuild/cel's, measured in the same run.
import * as buf from '@bufbuild/cel';
import * as bufExt from '@bufbuild/cel/ext';
import { tests } from '@bufbuild/cel-spec/testdata/conformance.js';
import * as mb from '@marcbachmann/cel-js';

/** Extension suites (strings, math, optionals, two-variable comprehensions, …) are not the core language. */
const EXTENSIONS = /(_ext|optionals|macros2)/;

function expected(original) {
  if (original.evalError) return { error: true };
  const v = original.value;
  if (!v) return undefined;
  if ('int64Value' in v) return { value: BigInt(v.int64Value) };
  if ('uint64Value' in v) return { value: BigInt(v.uint64Value), unsigned: true };
  if ('doubleValue' in v) return { value: Number(v.doubleValue) };
  if ('stringValue' in v) return { value: v.stringValue };
  if ('boolValue' in v) return { value: v.boolValue };
  if ('nullValue' in v) return { value: null };
  return undefined;
}

/** Core cases with a scalar result or an error, no bindings, no declared types, no container. */
function coreCases() {
  const cases = [];
  const walk = (suite, path) => {
    for (const test of suite.tests ?? []) {
      const o = test.original;
      if (o.typeEnv || o.bindings || o.container || EXTENSIONS.test(path)) continue;
      const want = expected(o);
      if (want) cases.push({ name: `${path}/${o.name}`, expr: o.expr, want });
    }
    for (const child of suite.suites ?? []) walk(child, path ? `${path}/${child.name}` : child.name);
  };
  walk(tests, '');
  return cases;
}

function same(actual, want) {
  let value = actual;
  if (want.unsigned && value !== null && typeof value === 'object') value = value.value ?? value.valueOf();
  if (typeof want.value === 'number' && typeof value === 'number') return Number.isNaN(want.value) ? Number.isNaN(value) : value === want.value;
  return value === want.value;
}

function conformance(cases) {
  const funcs = Object.values(bufExt).filter(Array.isArray).flat();
  const score = { bufbuild: 0, marcbachmann: 0 };
  for (const c of cases) {
    let r;
    try {
      r = buf.run(c.expr, {}, { funcs });
    } catch (error) {
      r = buf.celError(error);
    }
    const bufFailed = buf.isCelError(r);
    if (c.want.error ? bufFailed : !bufFailed && same(r, c.want)) score.bufbuild += 1;
    let m;
    let mbFailed = false;
    try {
      m = mb.evaluate(c.expr);
    } catch {
      mbFailed = true;
    }
    if (c.want.error ? mbFailed : !mbFailed && same(m, c.want)) score.marcbachmann += 1;
  }
  return score;
}

const RULE = 'findings.exists(f, f.severity == "CRIT") || (size(pkg.install_scripts) > 0 && pkg.age_days < 7) || vulnerabilities.exists(v, v.severity in ["high", "critical"])';
const input = (i) => ({
  pkg: { name: `p${i}`, age_days: BigInt(i % 30), install_scripts: i % 5 ? [] : ['postinstall'] },
  findings: [{ severity: i % 7 ? 'LOW' : 'CRIT', category: 'x', type: 'static' }],
  vulnerabilities: [{ id: 'GHSA', severity: i % 11 ? 'low' : 'high' }],
});

function ms(fn) {
  const started = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

function speed() {
  const env = new mb.Environment()
    .registerType('Finding', { fields: { severity: 'string', category: 'string', type: 'string' } })
    .registerType('Vuln', { fields: { id: 'string', severity: 'string' } })
    .registerType('Package', { fields: { name: 'string', age_days: 'int', install_scripts: 'list<string>' } })
    .registerVariable('pkg', 'Package')
    .registerVariable('findings', 'list<Finding>')
    .registerVariable('vulnerabilities', 'list<Vuln>');
  const bufEnv = buf.celEnv({
    variables: {
      pkg: buf.mapType(buf.CelScalar.STRING, buf.CelScalar.DYN),
      findings: buf.listType(buf.CelScalar.DYN),
      vulnerabilities: buf.listType(buf.CelScalar.DYN),
    },
  });
  const inputs = Array.from({ length: 20_000 }, (_, i) => input(i));
  const asMaps = inputs.map((x) => ({
    pkg: new Map(Object.entries(x.pkg)),
    findings: x.findings.map((f) => new Map(Object.entries(f))),
    vulnerabilities: x.vulnerabilities.map((v) => new Map(Object.entries(v))),
  }));
  // @bufbuild/cel keeps its type checker out of its public API: it parses and plans only.
  const compileMb = ms(() => {
    for (let i = 0; i < 1_000; i++) env.parse(RULE).check();
  });
  const compileBuf = ms(() => {
    for (let i = 0; i < 1_000; i++) buf.plan(bufEnv, buf.parse(RULE));
  });
  const mbRule = env.parse(RULE);
  const bufRule = buf.plan(bufEnv, buf.parse(RULE));
  let agree = 0;
  const evalMb = ms(() => {
    for (const x of inputs) if (mbRule(x)) agree += 1;
  });
  const evalBuf = ms(() => {
    for (const x of asMaps) {
      const r = bufRule(x);
      if (buf.isCelError(r)) throw r;
      if (r) agree -= 1;
    }
  });
  if (agree !== 0) throw new Error('the two engines disagree on the rule');
  return { compileMb, compileBuf, evalMb, evalBuf };
}

const cases = coreCases();
const score = conformance(cases);
console.log(`cel-spec core conformance (${cases.length} cases): @marcbachmann/cel-js ${score.marcbachmann}, @bufbuild/cel ${score.bufbuild}`);
const s = speed();
console.log(`compile a rule 1,000 times: @marcbachmann/cel-js ${s.compileMb.toFixed(0)} ms (parse + type check), @bufbuild/cel ${s.compileBuf.toFixed(0)} ms (parse + plan): ratio ${(s.compileMb / s.compileBuf).toFixed(2)}`);
console.log(`evaluate it on 20,000 inputs: @marcbachmann/cel-js ${s.evalMb.toFixed(0)} ms, @bufbuild/cel ${s.evalBuf.toFixed(0)} ms: ratio ${(s.evalMb / s.evalBuf).toFixed(2)}`);
