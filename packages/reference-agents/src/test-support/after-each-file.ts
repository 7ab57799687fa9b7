import { afterAll } from 'vitest';
import { removeTempDirs } from '../../../sandbox/src/test-support/temp-dirs.js';

// A setup file (vitest.config.ts): run for every test file, also where files share their worker's
// modules. temp-dirs.ts registers its own cleanup only after the first file that imports it there.
afterAll(removeTempDirs);
