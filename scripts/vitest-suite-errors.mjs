// A vitest reporter that writes the errors of suites and files (a throwing beforeAll/afterAll, a
// file that fails to load) to .test-results/suite-errors.json. vitest's JSON reporter drops them:
// a file whose beforeAll threw shows `status: "failed"`, an empty message and only skipped tests,
// so the closing summary (scripts/run-tests.mjs) could name the file but not say why.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export default class SuiteErrors {
  onInit(vitest) {
    this.root = vitest.config.root;
  }

  onTestRunEnd(testModules) {
    const files = {};
    for (const module of testModules) {
      const errors = [...module.errors(), ...[...module.children.allSuites()].flatMap((suite) => suite.errors())];
      if (errors.length > 0) files[module.moduleId] = errors.map((e) => `${e.name ?? 'Error'}: ${e.message ?? String(e)}`);
    }
    const dir = join(this.root, '.test-results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'suite-errors.json'), `${JSON.stringify(files, null, 2)}\n`);
  }
}
