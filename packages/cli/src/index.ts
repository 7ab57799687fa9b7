export { run, USAGE } from './run.js';
export type { Io } from './run.js';
