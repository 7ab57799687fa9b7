import type { FastifyRequest } from 'fastify';
import './signed-auth-plugin.js';

/** The validator that signed the request: it acts on its own hotkey only, never one named in the body. */
export function signerOf(request: FastifyRequest): { hotkey: string; uid: number; hadRecord: boolean } {
  // signedAuthPlugin sets a validator signer (with its metagraph uid) before any handler of these routes runs.
  if (request.signer === null || request.signer.role !== 'validator' || request.signer.uid === null) {
    throw new Error('validator route reached without a verified validator signer');
  }
  return { hotkey: request.signer.hotkey, uid: request.signer.uid, hadRecord: request.signer.hadRecord };
}
