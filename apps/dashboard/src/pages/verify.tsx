import { useState } from 'preact/hooks';
import { Time } from '../components/time.js';
import { formatCount } from '../lib/format.js';
import { verifyPasted, type VerifyOutcome } from '../lib/verify.js';
import { FullKey } from '../components/copy.js';
import { PageHeading } from './page.js';

/** Each check, said as what was found: a failed check never keeps the passing wording. */
const CHECKS = [
  {
    key: 'hash',
    label: 'Hash',
    passed: 'the canonical hash recomputed from the payload equals canonical_hash',
    failed: 'the canonical hash recomputed from the payload does not equal canonical_hash',
  },
  {
    key: 'signature',
    label: 'Signature',
    passed: "the ed25519 signature verifies over the payload's canonical bytes against validator_hotkey",
    failed: "the ed25519 signature does not verify over the payload's canonical bytes against validator_hotkey",
  },
  {
    key: 'permit',
    label: 'Validator permit',
    passed: 'the snapshot is of netuid 76 and gives validator_hotkey a validator permit',
    failed: 'the snapshot is not of netuid 76, or gives validator_hotkey no validator permit',
  },
] as const;

function JsonInput({ id, label, hint, value, onChange, error }: { id: string; label: string; hint: string; value: string; onChange: (text: string) => void; error: string | null }) {
  const [dragging, setDragging] = useState(false);
  const readFile = (file: File | undefined) => {
    if (file) void file.text().then(onChange);
  };
  return (
    <div
      class={`drop ${dragging ? 'dragging' : ''}`}
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(event) => {
        event.preventDefault();
        setDragging(false);
        readFile(event.dataTransfer?.files[0]);
      }}
    >
      <label for={id}>{label}</label>
      <p id={`${id}-hint`} class="hint">
        {hint}
      </p>
      <textarea
        id={id}
        rows={10}
        spellcheck={false}
        value={value}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
        aria-invalid={error ? 'true' : undefined}
        onInput={(event) => onChange((event.target as HTMLTextAreaElement).value)}
      />
      <label class="file">
        Or choose a file: <input type="file" accept="application/json,.json" onChange={(event) => readFile((event.target as HTMLInputElement).files?.[0])} />
      </label>
      {error ? (
        <p id={`${id}-error`} class="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function Result({ outcome }: { outcome: Extract<VerifyOutcome, { kind: 'checked' }> }) {
  const { result } = outcome;
  return (
    <section aria-labelledby="verify-result" class={`verify-result ${result.ok ? 'genuine' : 'not-genuine'}`}>
      <h2 id="verify-result">{result.ok ? 'Genuine: all three checks pass' : 'Not genuine'}</h2>
      {result.reason ? <p class="reason">{result.reason}</p> : null}
      <ul class="checks">
        {CHECKS.map((check) => {
          const passed = result.checks[check.key];
          return (
            <li key={check.key} class={passed ? 'pass' : 'fail'}>
              <strong>
                {check.label}: {passed ? 'pass' : 'fail'}
              </strong>{' '}
              <span class="muted">({passed ? check.passed : check.failed})</span>
            </li>
          );
        })}
      </ul>
      <p class="muted">
        Validator {outcome.validator ? <FullKey value={outcome.validator} what="validator hotkey" /> : 'unknown'}; snapshot of netuid {outcome.snapshot.netuid} at block{' '}
        {formatCount(outcome.snapshot.block)}, taken <Time value={outcome.snapshot.takenAt} />.
      </p>
    </section>
  );
}

export function VerifyPage() {
  const [envelope, setEnvelope] = useState('');
  const [snapshot, setSnapshot] = useState('');
  const [outcome, setOutcome] = useState<VerifyOutcome | null>(null);
  // A result is about the inputs it was computed from: any change to either clears it, so an edited
  // envelope never sits under the previous envelope's "Genuine".
  const change = (set: (text: string) => void) => (text: string) => {
    set(text);
    setOutcome(null);
  };
  const fieldError = (field: 'envelope' | 'snapshot') => (outcome?.kind === 'input_error' && outcome.field === field ? outcome.message : null);
  return (
    <>
      <PageHeading title="Verify an attestation" />
      <p>
        Checks a signed attestation the way spec part 2 describes: its hash, its validator's signature, and that validator's permit on
        netuid 76 in a metagraph snapshot. <strong>Everything runs in this browser; nothing you paste or drop is sent to any server.</strong>
      </p>
      <p class="muted">
        An envelope is <code>{'{"payload", "canonical_hash", "signature"}'}</code> (for example the <code>envelope</code> of{' '}
        <code>GET /v1/attestations/&#123;canonical_hash&#125;</code>). A snapshot is a metagraph file of netuid 76 (
        <code>vigil-server metagraph export</code>); the API does not publish one, so bring your own.
      </p>
      <form
        class="verify-form"
        onSubmit={(event) => {
          event.preventDefault();
          setOutcome(verifyPasted(envelope, snapshot));
        }}
      >
        <div class="columns">
          <JsonInput id="envelope" label="Attestation envelope (JSON)" hint="Paste it, drop a file here, or choose one." value={envelope} onChange={change(setEnvelope)} error={fieldError('envelope')} />
          <JsonInput id="snapshot" label="Metagraph snapshot (JSON)" hint="Paste it, drop a file here, or choose one." value={snapshot} onChange={change(setSnapshot)} error={fieldError('snapshot')} />
        </div>
        <button type="submit">Verify</button>
      </form>
      <div aria-live="polite">{outcome?.kind === 'checked' ? <Result outcome={outcome} /> : null}</div>
    </>
  );
}
