// @vigil/cli: the `vigil` command (docs/cli.md). `run` runs one command line in-process.
export { run } from './run.js';
export { describeVigilError } from './report.js';
export type { Io } from './io.js';
export { EXIT } from './exit-codes.js';
