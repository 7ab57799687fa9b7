import { parentPort, workerData } from 'node:worker_threads';
import { reviveCelInput } from '../cel/cel-environment.js';
import { compiledPolicy } from '../cel/compiled-policy-cache.js';
import { runPolicy } from '../cel/run-policy.js';
import {
  PROGRESS_INPUT,
  PROGRESS_INTS,
  PROGRESS_RULE,
  PROGRESS_RUNNING,
  PROGRESS_STARTED_AT_OFFSET,
  PROGRESS_TAKEN_AT_OFFSET,
  type EvaluationRequest,
  type EvaluationResponse,
} from './messages.js';

// The entry of a policy evaluation thread (evaluation-pool.ts): compiles each policy version once
// and runs its rules exactly as runPolicy does, writing which rule runs into shared memory so the
// main thread can end a rule that overruns its time, and posting each package's outcome at once so
// that an ended thread loses at most the package it was on.
const port = parentPort;
if (port === null) throw new Error('policy-worker.js runs as a thread of the policy evaluation pool, not on its own');

const progress = workerData as SharedArrayBuffer;
const ints = new Int32Array(progress, 0, PROGRESS_INTS);
const startedAt = new Float64Array(progress, PROGRESS_STARTED_AT_OFFSET, 1);
const takenAt = new Float64Array(progress, PROGRESS_TAKEN_AT_OFFSET, 1);

port.on('message', (request: EvaluationRequest) => {
  takenAt[0] = Date.now();
  const policy = compiledPolicy(request.policy);
  const skip = new Map(request.skip);
  for (let index = request.from; index < request.inputs.length; index++) {
    Atomics.store(ints, PROGRESS_INPUT, index);
    const outcome = runPolicy(policy, reviveCelInput(request.inputs[index]!), {
      skip,
      beforeRule: (rule) => {
        Atomics.store(ints, PROGRESS_RULE, rule);
        startedAt[0] = Date.now();
        Atomics.store(ints, PROGRESS_RUNNING, 1);
      },
    });
    Atomics.store(ints, PROGRESS_RUNNING, 0);
    port.postMessage({ id: request.id, kind: 'outcome', index, outcome } satisfies EvaluationResponse);
  }
  port.postMessage({ id: request.id, kind: 'done' } satisfies EvaluationResponse);
});
