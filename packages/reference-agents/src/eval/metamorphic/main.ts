import { writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { TRACKS, type Track } from '@vigil/core';
import { formatMetamorphic, runMetamorphic } from './run-metamorphic.js';
import { TRANSFORMATIONS } from './transforms.js';

// dist/eval/metamorphic/main.js → the package directory three levels up.
const PACKAGE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

const USAGE = `usage: node dist/eval/metamorphic/main.js [--track <track>]... [--transform <id>]... [--only <sample substring>]... [--out <file>] [--dump <dir outside the repository>]
  Rewrites the corpus's JS/TS and Python files with behaviour-preserving transformations (in a
  temporary directory) and reports which verdicts hold. Transformations: ${TRANSFORMATIONS.map((t) => t.id).join(', ')}`;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      track: { type: 'string', multiple: true },
      transform: { type: 'string', multiple: true },
      only: { type: 'string', multiple: true },
      out: { type: 'string' },
      dump: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const tracks = (values.track ?? [...TRACKS]) as Track[];
  const transformations = values.transform === undefined ? TRANSFORMATIONS : TRANSFORMATIONS.filter((t) => values.transform!.includes(t.id));
  const report = await runMetamorphic({ corpusRoot: join(PACKAGE_DIR, 'eval', 'corpus'), tracks, transformations, only: values.only, log: (l) => process.stderr.write(`${l}\n`), dumpDir: values.dump });
  const out = values.out ?? join(PACKAGE_DIR, 'eval', 'metamorphic-report.json');
  await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`${formatMetamorphic(report)}\nreport: ${out}\n`);
  return 0;
}

process.exitCode = await main();
