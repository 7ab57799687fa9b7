import { MetagraphSnapshot } from '@vigil/core';
import { verifyAttestation, type AttestationVerification } from '@vigil/crypto';

export type VerifyOutcome =
  | { kind: 'input_error'; field: 'envelope' | 'snapshot'; message: string }
  | { kind: 'checked'; result: AttestationVerification; validator: string | null; snapshot: { netuid: number; block: number; takenAt: string } };

function parseJson(text: string, field: 'envelope' | 'snapshot'): { ok: true; value: unknown } | { ok: false; outcome: VerifyOutcome } {
  if (text.trim() === '') {
    return { ok: false, outcome: { kind: 'input_error', field, message: `Paste or drop the ${field === 'envelope' ? 'attestation envelope' : 'metagraph snapshot'} first.` } };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, outcome: { kind: 'input_error', field, message: `Not JSON: ${(error as Error).message}` } };
  }
}

/**
 * The three checks of spec part 2, here in the browser with @vigil/crypto. The envelope is handed
 * over exactly as parsed (the hash and signature are over the payload as received); nothing is
 * sent anywhere.
 */
export function verifyPasted(envelopeText: string, snapshotText: string): VerifyOutcome {
  const envelope = parseJson(envelopeText, 'envelope');
  if (!envelope.ok) return envelope.outcome;
  const snapshotJson = parseJson(snapshotText, 'snapshot');
  if (!snapshotJson.ok) return snapshotJson.outcome;
  // A snapshot that is not one at all is the reader's input mistake, said before any check runs.
  const snapshot = MetagraphSnapshot.safeParse(snapshotJson.value);
  if (!snapshot.success) {
    const issue = snapshot.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'snapshot';
    return { kind: 'input_error', field: 'snapshot', message: `Not a metagraph snapshot: ${where}: ${issue?.message ?? 'invalid'}` };
  }
  const result = verifyAttestation(envelope.value, snapshotJson.value as MetagraphSnapshot);
  const payload = (envelope.value as { payload?: { validator_hotkey?: unknown } } | null)?.payload;
  return {
    kind: 'checked',
    result,
    validator: typeof payload?.validator_hotkey === 'string' ? payload.validator_hotkey : null,
    snapshot: { netuid: snapshot.data.netuid, block: snapshot.data.block, takenAt: snapshot.data.taken_at },
  };
}
