import { useState } from 'preact/hooks';
import { Time } from '../components/time.js';
import { formatCount } from '../lib/format.js';
import { checkLogInclusion, type LogInclusionOutcome } from '../lib/log-inclusion.js';
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

/** The log check's answer: inclusion and the checkpoint it was proven against, or why not. */
function LogResult({ outcome }: { outcome: Exclude<LogInclusionOutcome, { kind: 'input_error' }> }) {
  return (
    <section aria-labelledby="log-result" class={`verify-result ${outcome.kind === 'included' ? 'genuine' : 'not-genuine'}`}>
      <h2 id="log-result">{outcome.kind === 'included' ? 'In the transparency log' : 'Log inclusion not proven'}</h2>
      {outcome.kind === 'included' ? (
        <ul class="checks log-checks">
          <li class="pass">
            <strong>Log inclusion: pass</strong> <span class="muted">(entry {formatCount(outcome.index)} of the tree of {formatCount(outcome.treeSize)} entries)</span>
          </li>
          <li class="pass">
            <strong>Checkpoint:</strong> <span class="muted">{outcome.origin}, {formatCount(outcome.treeSize)} entries, root</span> <code>{outcome.root}</code>
          </li>
          <li class="pass">
            <strong>Signed by:</strong> <code class="log-key">{outcome.logKey}</code>
          </li>
        </ul>
      ) : (
        <p class="reason">{outcome.reason}</p>
      )}
    </section>
  );
}

export function VerifyPage() {
  const [envelope, setEnvelope] = useState('');
  const [snapshot, setSnapshot] = useState('');
  const [proof, setProof] = useState('');
  const [logKey, setLogKey] = useState('');
  const [outcome, setOutcome] = useState<VerifyOutcome | null>(null);
  const [log, setLog] = useState<LogInclusionOutcome | null>(null);
  // A result is about the inputs it was computed from: any change to either clears it, so an edited
  // envelope never sits under the previous envelope's "Genuine".
  const change = (set: (text: string) => void) => (text: string) => {
    set(text);
    setOutcome(null);
    setLog(null);
  };
  const fieldError = (field: 'envelope' | 'snapshot') => (outcome?.kind === 'input_error' && outcome.field === field ? outcome.message : null);
  const logError = (field: 'proof' | 'log-key') => (log?.kind === 'input_error' && log.field === field ? log.message : null);
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
      <p class="muted">
        Optionally, also check that the server's transparency log holds it: the answer of{' '}
        <code>GET /v1/attestations/&#123;canonical_hash&#125;?proof=true</code> (its <code>log_proof</code> and <code>log_entry</code>) and the
        log's verifier key, pinned out of band (<code>&lt;origin&gt;+&lt;key ID&gt;+&lt;key&gt;</code>).
      </p>
      <form
        class="verify-form"
        onSubmit={(event) => {
          event.preventDefault();
          const checked = verifyPasted(envelope, snapshot);
          setOutcome(checked);
          // The log is checked only for an envelope that parsed; without a proof, not at all.
          setLog(checked.kind === 'checked' && proof.trim() !== '' ? checkLogInclusion(JSON.parse(envelope), proof, logKey) : null);
        }}
      >
        <div class="columns">
          <JsonInput id="envelope" label="Attestation envelope (JSON)" hint="Paste it, drop a file here, or choose one." value={envelope} onChange={change(setEnvelope)} error={fieldError('envelope')} />
          <JsonInput id="snapshot" label="Metagraph snapshot (JSON)" hint="Paste it, drop a file here, or choose one." value={snapshot} onChange={change(setSnapshot)} error={fieldError('snapshot')} />
        </div>
        <div class="columns">
          <JsonInput
            id="log-proof"
            label="Log proof (optional, JSON)"
            hint="The ?proof=true answer of the attestation: paste it, drop a file here, or choose one."
            value={proof}
            onChange={change(setProof)}
            error={logError('proof')}
          />
          <div class="drop">
            <label for="log-key">Log key (with a log proof)</label>
            <p id="log-key-hint" class="hint">
              The log's verifier key, as docs/log.md gives it; a checkpoint signed by any other key is refused.
            </p>
            <input
              id="log-key"
              type="text"
              spellcheck={false}
              value={logKey}
              aria-describedby={`log-key-hint${logError('log-key') ? ' log-key-error' : ''}`}
              aria-invalid={logError('log-key') ? 'true' : undefined}
              onInput={(event) => change(setLogKey)((event.target as HTMLInputElement).value)}
            />
            {logError('log-key') ? (
              <p id="log-key-error" class="field-error">
                {logError('log-key')}
              </p>
            ) : null}
          </div>
        </div>
        <button type="submit">Verify</button>
      </form>
      <div aria-live="polite">
        {outcome?.kind === 'checked' ? <Result outcome={outcome} /> : null}
        {log !== null && log.kind !== 'input_error' ? <LogResult outcome={log} /> : null}
      </div>
    </>
  );
}
