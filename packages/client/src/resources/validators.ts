import {
  AttestationReceipt,
  BatchAttestationReceipt,
  TaskClaim,
  TaskProgress,
  ThreatIntel,
  ValidatorRegistration,
} from '@vigil/core';
import type { AttestationSubmission, TaskClaimRequest, TaskProgressRequest } from '@vigil/core';
import type * as z from 'zod';
import type { Dated } from '../dates.js';
import type { CallOptions, Transport } from '../transport.js';
import { call, segment } from './shared.js';

/** `/v1/validators/*`, signed with the validator's hotkey (docs/protocol.md). */
export class Validators {
  constructor(private readonly transport: Transport) {}

  /** `POST /v1/validators/registration`: registers, or replaces the source addresses of, the validator. */
  register(params: { allowed_ips: string[] }, options?: CallOptions): Promise<Dated<typeof ValidatorRegistration>> {
    return call(this.transport, { method: 'POST', path: '/v1/validators/registration', body: { json: params }, schema: ValidatorRegistration, repeatable: 'safe', signed: true }, options);
  }

  /**
   * `POST /v1/validators/tasks/claim`: leases up to `max` tasks. An attempt whose answer was lost may
   * have leased tasks (they expire unreported), so only a 429 or 5xx is retried.
   */
  claim(params: TaskClaimRequest = {}, options?: CallOptions): Promise<Dated<typeof TaskClaim>> {
    return call(this.transport, { method: 'POST', path: '/v1/validators/tasks/claim', body: { json: params }, schema: TaskClaim, repeatable: 'answered', signed: true }, options);
  }

  /** `POST /v1/validators/tasks/{task_id}/progress`: a heartbeat (`running`, which extends the lease) or `failed`. */
  progress(taskId: string, params: TaskProgressRequest, options?: CallOptions): Promise<Dated<typeof TaskProgress>> {
    return call(this.transport, { method: 'POST', path: `/v1/validators/tasks/${segment(taskId, 'taskId')}/progress`, body: { json: params }, schema: TaskProgress, repeatable: 'safe', signed: true }, options);
  }

  /** `GET /v1/validators/artifacts/{sha256}`: the bytes of an artifact of a leased task, as stored. */
  downloadArtifact(sha256: string, options?: CallOptions): Promise<Uint8Array> {
    return this.transport.bytes({ method: 'GET', path: `/v1/validators/artifacts/${segment(sha256, 'sha256')}`, repeatable: 'safe', signed: true }, options);
  }

  /** `GET /v1/validators/agents/{agent_hash}/bundle`: the bundle JSON of a leased task's agent, as its bytes (its hash is over them). */
  downloadAgentBundle(agentHash: string, options?: CallOptions): Promise<Uint8Array> {
    return this.transport.bytes({ method: 'GET', path: `/v1/validators/agents/${segment(agentHash, 'agentHash')}/bundle`, repeatable: 'safe', signed: true }, options);
  }

  /**
   * `POST /v1/validators/attestations`: one signed envelope, with `dsse_signature` when it has one
   * (signAttestationSubmission of @vigil/crypto); the same envelope again is answered `duplicate`.
   */
  attest(envelope: z.input<typeof AttestationSubmission>, options?: CallOptions): Promise<Dated<typeof AttestationReceipt>> {
    return call(this.transport, { method: 'POST', path: '/v1/validators/attestations', body: { json: envelope }, schema: AttestationReceipt, repeatable: 'safe', signed: true }, options);
  }

  /** `POST /v1/validators/attestations/batch`: up to 500 envelopes in one transaction, an outcome per envelope. */
  attestBatch(attestations: z.input<typeof AttestationSubmission>[], options?: CallOptions): Promise<Dated<typeof BatchAttestationReceipt>> {
    return call(this.transport, { method: 'POST', path: '/v1/validators/attestations/batch', body: { json: { attestations } }, schema: BatchAttestationReceipt, repeatable: 'safe', signed: true }, options);
  }

  /** `GET /v1/validators/threat-intel/{sha256}`: what the network knows of an artifact. */
  threatIntel(sha256: string, options?: CallOptions): Promise<Dated<typeof ThreatIntel>> {
    return call(this.transport, { method: 'GET', path: `/v1/validators/threat-intel/${segment(sha256, 'sha256')}`, schema: ThreatIntel, repeatable: 'safe', signed: true }, options);
  }
}
