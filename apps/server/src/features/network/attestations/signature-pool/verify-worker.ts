import { parentPort } from 'node:worker_threads';
import { createAttestationVerifier, type AttestationVerifier } from '@vigil/crypto';
import type { VerifyRequest, VerifyResponse } from './messages.js';
import { checkSubmission } from './submission-check.js';

// The entry of a verify-pool thread (see verify-pool.ts): prepares each snapshot once, then checks
// envelopes against it exactly as checkSubmission does on the main thread.
const port = parentPort;
if (port === null) throw new Error('verify-worker.js runs as a worker thread of the verify pool, not on its own');

let current: { key: string; verifier: AttestationVerifier } | null = null;

port.on('message', (message: VerifyRequest) => {
  if (message.kind === 'snapshot') {
    current = { key: message.key, verifier: createAttestationVerifier(message.snapshot) };
    return;
  }
  let response: VerifyResponse;
  if (current === null || current.key !== message.key) {
    response = { id: message.id, error: `metagraph snapshot ${message.key} was not sent to this worker` };
  } else {
    const verifier = current.verifier;
    try {
      response = { id: message.id, results: message.envelopes.map((envelope) => checkSubmission((e) => verifier.verify(e), envelope)) };
    } catch (error) {
      response = { id: message.id, error: error instanceof Error ? error.message : String(error) };
    }
  }
  port.postMessage(response);
});
