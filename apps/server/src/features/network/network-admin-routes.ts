import {
  AdminRoundCloseRequest,
  AdminRoundClosed,
  AdminRoundParams,
  AdminRoundSchedule,
  AdminValidator,
  AdminValidatorList,
  MetagraphSnapshot,
  MetagraphUploaded,
  VALIDATOR_ADMIN_ACTIONS,
  ValidatorAllowlistRequest,
  ValidatorHotkeyParams,
  formatOffsetTimestamp,
} from '@vigil/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import '../../platform/http/route-config.js';
import { notFoundWhenInvalid } from '../../platform/http/zod-compilers.js';
import { ADMIN, ADMIN_CHANGE, actorOf, type KeyRoutesOptions } from '../accounts/index.js';
import type { CachedMetagraph } from './metagraph/cached-metagraph.js';
import { uploadMetagraphSnapshot } from './metagraph/upload-metagraph-snapshot.js';
import { closeRoundNow, readRoundSchedule } from './rounds/rounds-admin.js';
import type { SchedulerSettings } from './rounds/scheduler/settings.js';
import { applyValidatorAction, listValidators, setValidatorAllowlist, type ValidatorRecord } from './validators/validators.js';

notFoundWhenInvalid.add(ValidatorHotkeyParams, { code: 'unknown_validator' });
notFoundWhenInvalid.add(AdminRoundParams, { code: 'round_not_found' });

export interface NetworkAdminRoutesOptions extends KeyRoutesOptions {
  /** The metagraph permit checks use (`POST /v1/admin/metagraph` replaces its snapshot file). */
  metagraph: CachedMetagraph;
  /** The round timings the scheduler runs with: the schedule view and a forced close use them. */
  scheduler: SchedulerSettings;
}

function validatorBody(record: ValidatorRecord): AdminValidator {
  return {
    hotkey: record.hotkey,
    uid: record.uid,
    status: record.status,
    allowed_ips: record.allowedIps,
    registered_at: formatOffsetTimestamp(Number(record.registeredAt)),
    last_seen_at: record.lastSeenAt === null ? null : formatOffsetTimestamp(Number(record.lastSeenAt)),
  };
}

/** The admin API's validators, metagraph upload and rounds (docs/accounts.md, "Admin API"). */
export const networkAdminRoutes: FastifyPluginAsyncZod<NetworkAdminRoutesOptions> = async (app, { db, clock, metagraph, scheduler }) => {
  app.get(
    '/v1/admin/validators',
    { schema: { summary: 'Every validator record, oldest registration first', response: { 200: AdminValidatorList } }, config: ADMIN },
    async () => ({ validators: (await listValidators(db)).map(validatorBody) }),
  );

  for (const action of VALIDATOR_ADMIN_ACTIONS) {
    app.post(
      `/v1/admin/validators/:hotkey/${action}`,
      {
        schema: { summary: `${action[0]!.toUpperCase()}${action.slice(1)} a validator (the rules of vigil-server validators ${action})`, params: ValidatorHotkeyParams, response: { 200: AdminValidator } },
        config: ADMIN_CHANGE,
      },
      async (request) => {
        const { record } = await applyValidatorAction(db, { hotkey: request.params.hotkey, action, now: clock(), actor: actorOf(request) });
        return validatorBody(record);
      },
    );
  }

  app.post(
    '/v1/admin/validators/:hotkey/allowlist',
    {
      schema: { summary: "Replace a validator's IP allowlist", params: ValidatorHotkeyParams, body: ValidatorAllowlistRequest, response: { 200: AdminValidator } },
      config: ADMIN_CHANGE,
    },
    async (request) =>
      validatorBody(
        await setValidatorAllowlist(db, { hotkey: request.params.hotkey, allowedIps: request.body.allowed_ips, now: clock(), actor: actorOf(request) }),
      ),
  );

  app.post(
    '/v1/admin/metagraph',
    {
      schema: { summary: 'Replace the metagraph snapshot file permit checks read', body: MetagraphSnapshot, response: { 200: MetagraphUploaded } },
      config: ADMIN_CHANGE,
    },
    async (request) => uploadMetagraphSnapshot(db, metagraph, { snapshot: request.body, now: clock(), actor: actorOf(request) }),
  );

  app.get(
    '/v1/admin/rounds',
    { schema: { summary: "Every track's latest round, its deadlines and the next opening", response: { 200: AdminRoundSchedule } }, config: ADMIN },
    async () => readRoundSchedule(db, { now: clock(), settings: scheduler }),
  );

  app.post(
    '/v1/admin/rounds/:round_id/close',
    {
      schema: {
        summary: 'Close a round in evaluation now (scores and publishes it), under the scheduler lock',
        params: AdminRoundParams,
        body: AdminRoundCloseRequest,
        response: { 200: AdminRoundClosed },
      },
      config: ADMIN_CHANGE,
    },
    async (request) =>
      closeRoundNow(db, {
        roundId: request.params.round_id,
        force: request.body.force,
        now: clock(),
        settings: scheduler,
        actor: actorOf(request),
      }),
  );
};
