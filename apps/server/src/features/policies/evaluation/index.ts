export { EVALUATION_HEAP_MB, EVALUATION_TIME_LIMIT_MS, RULE_TIME_LIMIT_MS, createPolicyRunner, sharedPolicyRunner } from './evaluation-pool.js';
export type { PolicyRunner, PolicyRunnerOptions, PolicyToRun } from './evaluation-pool.js';
