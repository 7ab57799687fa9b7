import { describe, expect, it } from 'vitest';
import { dirWith } from '../../../../sandbox/src/test-support/temp-dirs.js';
import { DEFAULT_FILE_WALK_LIMITS, listArtifactFiles } from './artifact-files.js';
import { linkArtifactConstants } from './linked-constants.js';
import { importedConstantsOf } from './linked-constants-store.js';

const IMPORTER = "import { HOST } from './consts.js';\nexport const url = `https://${HOST}/v1`;\n";

async function link(files: Record<string, string>): Promise<void> {
  const { files: listed } = await listArtifactFiles(await dirWith(files), DEFAULT_FILE_WALK_LIMITS);
  await linkArtifactConstants(listed);
}

describe('linkArtifactConstants', () => {
  it('reads a constant another module of the artifact exports as written in place', async () => {
    await link({ 'src/index.js': IMPORTER, 'src/consts.js': "export const HOST = 'collector.example.net';\n" });
    expect(importedConstantsOf(IMPORTER).get('HOST')).toBe('collector.example.net');
  });

  it("keeps one artifact's links from the next, even for a file whose text both share", async () => {
    await link({ 'src/index.js': IMPORTER, 'src/consts.js': "export const HOST = 'collector.example.net';\n" });
    // The next artifact ships the same importer beside a different constants module, then none at all.
    await link({ 'lib/index.js': IMPORTER, 'lib/consts.js': "export const HOST = 'api.vendor.example';\n" });
    expect(importedConstantsOf(IMPORTER).get('HOST')).toBe('api.vendor.example');
    await link({ 'lib/index.js': IMPORTER, 'lib/other.js': 'export const unrelated = 1;\n' });
    expect(importedConstantsOf(IMPORTER).size).toBe(0);
  });
});
