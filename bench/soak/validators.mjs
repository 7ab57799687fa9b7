// Validators as the protocol has them (docs/protocol.md): each claims tasks through the SDK's
// SignedVigilClient, judges them (a made-up verdict: the soak measures the service, not an agent),
// signs an attestation per task and submits them with POST /v1/validators/attestations/batch. A
// batch whose answer was lost (5xx, timeout, reset) is sent again, as a validator does: the server
// answers `duplicate` for what it had recorded. Every envelope answered `created` or `duplicate` is an
// acknowledged write the invariants look for in the database.
import { SignedVigilClient, keypairFromSeed } from '@vigil/client';
import { formatOffsetTimestamp } from '@vigil/core';
import { signAttestation } from '@vigil/crypto';

export function validatorKeypairs(count) {
  return Array.from({ length: count }, (_, i) => keypairFromSeed((0xa0 + i).toString(16).padStart(2, '0').repeat(32)));
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function startValidators({ baseUrl, keypairs, stats, claimMax = 5, pauseMs = 1_500, timeoutMs = 15_000 }) {
  const acked = new Map(); // canonical_hash → { created: n, duplicate: n }
  let refused = 0;
  const refusals = new Map();
  let stopping = false;
  const loops = keypairs.map(async (keypair, v) => {
    const client = new SignedVigilClient({ baseUrl, keypair, timeout: timeoutMs });
    // Registration is retried until it is answered: the run cannot judge validators that never registered.
    for (;;) {
      try {
        await client.request('POST', '/v1/validators/registration', { allowed_ips: ['127.0.0.1'] });
        break;
      } catch {
        if (stopping) return;
        await sleep(500);
      }
    }
    let unsent = []; // envelopes whose batch got no usable answer: sent again first
    let n = 0;
    while (!stopping) {
      let envelopes = unsent;
      if (envelopes.length === 0) {
        const started = performance.now();
        try {
          const claim = await client.request('POST', '/v1/validators/tasks/claim', { max: claimMax });
          stats.record('validator claim', 'ok', performance.now() - started);
          envelopes = claim.tasks.map((task) => {
            n += 1;
            const verdict = ['ALLOW', 'ALLOW', 'WARN', 'BLOCK'][(n + v) % 4];
            const payload = {
              round_id: claim.round.round_id,
              task_id: task.task_id,
              track: claim.round.track,
              miner_hotkey: task.miner_hotkey,
              agent_hash: task.agent_hash,
              artifact: task.artifact,
              verdict,
              risk_score: verdict === 'ALLOW' ? 5 : verdict === 'WARN' ? 50 : 90,
              findings: [],
              policy_version: claim.round.policy_version,
              validator_hotkey: keypair.hotkey,
              created_at: formatOffsetTimestamp(Date.now()),
            };
            return signAttestation(payload, keypair.secretKey);
          });
        } catch (error) {
          stats.record('validator claim', classify(error), performance.now() - started, describe(error));
          await sleep(pauseMs);
          continue;
        }
      }
      if (envelopes.length === 0) {
        await sleep(pauseMs);
        continue;
      }
      const started = performance.now();
      try {
        const receipt = await client.request('POST', '/v1/validators/attestations/batch', { attestations: envelopes });
        stats.record('validator batch', 'ok', performance.now() - started);
        for (const result of receipt.results) {
          if (result.outcome === 'refused') {
            refused += 1;
            const why = `${result.status} ${result.detail}`;
            refusals.set(why, (refusals.get(why) ?? 0) + 1);
            continue;
          }
          const entry = acked.get(result.canonical_hash) ?? { created: 0, duplicate: 0 };
          entry[result.outcome] += 1;
          acked.set(result.canonical_hash, entry);
        }
        unsent = [];
      } catch (error) {
        stats.record('validator batch', classify(error), performance.now() - started, describe(error));
        // A 4xx refuses the whole batch for good (nothing recorded): not sent again.
        unsent = isRetryable(error) ? envelopes : [];
      }
      await sleep(pauseMs);
    }
  });
  return {
    acked,
    get refused() {
      return refused;
    },
    refusals,
    async stop() {
      stopping = true;
      await Promise.all(loops);
    },
  };
}

function isRetryable(error) {
  const status = error?.status;
  return status === null || status === undefined || status >= 500 || status === 429 || status === 408;
}

export function classify(error) {
  const status = error?.status;
  if (typeof status === 'number' && status >= 400 && status < 500 && status !== 408) return 'rejected';
  return 'error';
}

function describe(error) {
  const status = error?.status;
  const detail = String(error?.detail ?? error?.message ?? '');
  return `${status ?? error?.name ?? 'error'} ${detail.includes('nginx') ? 'from nginx' : detail}`.slice(0, 120);
}
