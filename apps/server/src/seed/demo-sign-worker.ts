import { parentPort } from 'node:worker_threads';
import { signAttestationSubmission } from '@vigil/crypto';
import type { SignRequest, SignResponse } from './demo-signer.js';

// The entry of the demo signer's thread (demo-signer.ts): signs its share of a round's payloads
// with the same signAttestationSubmission the seed calls on the main thread.
const port = parentPort;
if (port === null) throw new Error('demo-sign-worker.js runs as a worker thread of the demo signer, not on its own');

port.on('message', (request: SignRequest) => {
  let response: SignResponse;
  try {
    response = { id: request.id, envelopes: request.items.map((item) => signAttestationSubmission(item.payload, item.secretKey)) };
  } catch (error) {
    response = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(response);
});
