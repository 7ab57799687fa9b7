import { AgentSubmissionRequest, MinerAgent, MinerRegistration } from '@vigil/core';
import type { Track } from '@vigil/core';
import * as z from 'zod';
import type { Dated } from '../dates.js';
import type { CallOptions, Transport } from '../transport.js';
import { call, segment } from './shared.js';

const NoContent = z.undefined();

/** `/v1/miners/*`, signed with the miner's hotkey (docs/protocol.md). */
export class Miners {
  constructor(private readonly transport: Transport) {}

  /** `POST /v1/miners/registrations`: registers the hotkey on a track; registering again answers the registration. */
  register(params: { track: Track }, options?: CallOptions): Promise<Dated<typeof MinerRegistration>> {
    return call(this.transport, { method: 'POST', path: '/v1/miners/registrations', body: { json: params }, schema: MinerRegistration, repeatable: 'safe', signed: true }, options);
  }

  /** `DELETE /v1/miners/registrations/{track}`: leaves the track (404 `registration_not_found` when not registered). */
  async deregister(track: Track, options?: CallOptions): Promise<void> {
    await call(this.transport, { method: 'DELETE', path: `/v1/miners/registrations/${segment(track, 'track')}`, schema: NoContent, repeatable: 'answered', signed: true }, options);
  }

  /** `POST /v1/miners/agents`: submits an agent bundle; the same bundle again is not a new version. */
  submitAgent(submission: z.input<typeof AgentSubmissionRequest>, options?: CallOptions): Promise<Dated<typeof MinerAgent>> {
    return call(this.transport, { method: 'POST', path: '/v1/miners/agents', body: { json: submission }, schema: MinerAgent, repeatable: 'safe', signed: true }, options);
  }

  /** `GET /v1/miners/agents/{track}`: the hotkey's active agent on the track. */
  agent(track: Track, options?: CallOptions): Promise<Dated<typeof MinerAgent>> {
    return call(this.transport, { method: 'GET', path: `/v1/miners/agents/${segment(track, 'track')}`, schema: MinerAgent, repeatable: 'safe', signed: true }, options);
  }

  /** `DELETE /v1/miners/agents/{track}`: withdraws the active agent from the track. */
  async deleteAgent(track: Track, options?: CallOptions): Promise<void> {
    await call(this.transport, { method: 'DELETE', path: `/v1/miners/agents/${segment(track, 'track')}`, schema: NoContent, repeatable: 'answered', signed: true }, options);
  }
}
