import type { MetagraphSnapshot, MetagraphUploaded, ValidationIssue } from '@vigil/core';
import type { Kysely } from 'kysely';
import type { Database } from '../../../platform/db/schema.js';
import { VigilError } from '../../../platform/errors.js';
import { CachedMetagraph } from './cached-metagraph.js';
import { FileMetagraphSource } from './file-metagraph-source.js';
import { writeSnapshotFile } from './write-snapshot-file.js';
import { recordAudit, type AuditActor } from '../../../platform/audit-log.js';
import { inTransaction } from '../../../platform/db/transaction.js';

/** What the file source would refuse beyond core's schema (docs/metagraph.md), as 422 issues on the body. */
function snapshotIssues(snapshot: MetagraphSnapshot, netuid: number): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (snapshot.netuid !== netuid) issues.push({ path: 'body.netuid', message: `expected netuid ${netuid}` });
  const uids = new Set<number>();
  const hotkeys = new Set<string>();
  snapshot.neurons.forEach((neuron, index) => {
    if (uids.has(neuron.uid)) issues.push({ path: `body.neurons.${index}.uid`, message: `uid ${neuron.uid} appears twice` });
    if (hotkeys.has(neuron.hotkey)) issues.push({ path: `body.neurons.${index}.hotkey`, message: 'hotkey appears twice' });
    uids.add(neuron.uid);
    hotkeys.add(neuron.hotkey);
  });
  return issues;
}

/**
 * Replaces the metagraph snapshot file the server reads permits from (`POST /v1/admin/metagraph`):
 * written atomically (temporary file + rename), audited, then re-read into this instance's cache
 * so its next permit check uses it. Other instances reading the same file pick it up at their next
 * refresh (within VIGIL_METAGRAPH_TTL_S). A server reading the live chain refuses:
 * 409 `metagraph_live_source`.
 */
export async function uploadMetagraphSnapshot(
  db: Kysely<Database>,
  metagraph: CachedMetagraph,
  input: { snapshot: MetagraphSnapshot; now: number; actor: AuditActor },
): Promise<MetagraphUploaded> {
  const source = metagraph.source;
  if (!(source instanceof FileMetagraphSource)) throw new VigilError('metagraph_live_source');
  const { snapshot } = input;
  const issues = snapshotIssues(snapshot, source.netuid);
  if (issues.length > 0) throw new VigilError('validation_error', { issues });
  const summary: MetagraphUploaded = {
    netuid: snapshot.netuid,
    block: snapshot.block,
    neurons: snapshot.neurons.length,
    validator_permits: snapshot.neurons.filter((n) => n.validator_permit).length,
  };
  // The file is written inside the audit's transaction: a failed write leaves no entry behind.
  await inTransaction(db, async (trx) => {
    await recordAudit(trx, input.actor, { action: 'metagraph.upload', target: `netuid:${snapshot.netuid}`, detail: { ...summary, taken_at: snapshot.taken_at }, at: input.now });
    await writeSnapshotFile(source.path, snapshot);
  });
  // A failed re-read is recorded by the cache (and retried); the file is in place either way.
  await metagraph.refresh().catch(() => undefined);
  return summary;
}
