import { useState } from 'preact/hooks';
import { isContentHash, type Artifact } from '../api.js';
import { KeyForm } from '../components/key-form.js';
import { Empty, Show } from '../components/status.js';
import { Stat, TableRegion } from '../components/table.js';
import { Time } from '../components/time.js';
import { useApi } from '../lib/context.js';
import { groupFindings } from '../lib/findings.js';
import { formatCount, trackLabel } from '../lib/format.js';
import { ShortKey } from '../components/copy.js';
import { navigate } from '../lib/router.js';
import { useRememberedKey } from '../lib/remembered-key.js';
import { useResource } from '../lib/use-resource.js';
import { PageHeading } from './page.js';

function Verdict({ verdict }: { verdict: string }) {
  return <span class={`badge verdict-${verdict.toLowerCase()}`}>{verdict}</span>;
}

function Lookup({ purl, apiKey, onKey }: { purl: string; apiKey: string; onKey: (key: string) => void }) {
  const [purlText, setPurlText] = useState(purl);
  return (
    <KeyForm
      name="artifact"
      apiKey={apiKey}
      submit="Look up"
      onSubmit={(key) => {
        if (purlText === '') return 'Enter a package reference, e.g. pkg:npm/left-pad@1.3.0, or a content hash, sha256:<64 hex>.';
        onKey(key);
        // The reference is sent exactly as typed (the server trims nothing); only the key stays out of the URL.
        navigate(isContentHash(purlText) ? `/artifacts?sha256=${encodeURIComponent(purlText)}` : `/artifacts?purl=${encodeURIComponent(purlText)}`);
        return null;
      }}
    >
      <label for="artifact-purl">Package reference (purl or short form) or content hash</label>
      <p id="artifact-purl-hint" class="hint">
        A content hash, <code>sha256:</code> and 64 lowercase hex digits, finds the artifacts with exactly those bytes.
      </p>
      <input
        id="artifact-purl"
        type="text"
        autoComplete="off"
        spellcheck={false}
        aria-describedby="artifact-purl-hint"
        placeholder="pkg:npm/left-pad@1.3.0"
        value={purlText}
        onInput={(e) => setPurlText((e.target as HTMLInputElement).value)}
      />
    </KeyForm>
  );
}

function ArtifactCard({ artifact }: { artifact: Artifact }) {
  const { verdict, archive } = artifact;
  return (
    <section class="artifact" aria-labelledby={`${artifact.id}-title`}>
      <h2 id={`${artifact.id}-title`}>
        <code>{artifact.id}</code> {verdict ? <Verdict verdict={verdict.verdict} /> : <span class="badge">pending</span>}
      </h2>
      <dl class="stats">
        <Stat label="State" value={artifact.state} />
        <Stat label="Verdict" value={verdict ? verdict.verdict : 'none yet'} />
        <Stat label="Risk score" value={verdict ? formatCount(verdict.risk_score) : '—'} note={verdict ? 'of 100' : undefined} />
        <Stat label="Decided at" value={verdict ? <Time value={verdict.decided_at} /> : '—'} />
        <Stat label="Track" value={trackLabel(artifact.track)} />
        <Stat label="Size" value={artifact.size === null ? 'not stored here' : `${formatCount(artifact.size)} bytes`} />
      </dl>
      <dl class="hashes">
        <dt>SHA-256</dt>
        <dd>
          <code class="hash">{artifact.sha256}</code>
        </dd>
        <dt>Registered</dt>
        <dd>
          <Time value={artifact.created_at} />
        </dd>
        {verdict ? (
          <>
            <dt>Decided by round</dt>
            <dd>
              <a href={`/rounds/${encodeURIComponent(verdict.round_id)}`}>
                <code>{verdict.round_id}</code>
              </a>
            </dd>
          </>
        ) : null}
        <dt>References</dt>
        <dd>{artifact.packages.length === 0 ? 'none that count for this key' : artifact.packages.map((p) => p.purl).join(', ')}</dd>
      </dl>

      <h3>Verdict history</h3>
      {artifact.verdict_history.length === 0 ? (
        <Empty>No published verdict yet: the artifact is pending until a round decides it.</Empty>
      ) : (
        <TableRegion label="Verdict history">
          <thead>
            <tr>
              <th scope="col">Changed at</th>
              <th scope="col">Verdict</th>
              <th scope="col">Previously</th>
              <th scope="col">Risk score</th>
              <th scope="col">Round</th>
            </tr>
          </thead>
          <tbody>
            {artifact.verdict_history.map((change) => (
              <tr key={`${change.round_id}-${change.changed_at.getTime()}`}>
                <td>
                  <Time value={change.changed_at} />
                </td>
                <td>
                  <Verdict verdict={change.verdict} />
                </td>
                <td>{change.previous_verdict ?? 'first decision'}</td>
                <td class="num">{formatCount(change.risk_score)}</td>
                <td>
                  <code>{change.round_id}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </TableRegion>
      )}

      <h3>Attestations behind the verdict</h3>
      {artifact.attestations.length === 0 ? (
        <Empty>None: a pending artifact has no deciding attestations.</Empty>
      ) : (
        <TableRegion label="Attestations behind the verdict">
          <thead>
            <tr>
              <th scope="col">Verdict</th>
              <th scope="col">Risk score</th>
              <th scope="col">Validator</th>
              <th scope="col">Recorded</th>
              <th scope="col">Canonical hash</th>
            </tr>
          </thead>
          <tbody>
            {artifact.attestations.map((a) => (
              <tr key={a.canonical_hash}>
                <td>
                  <Verdict verdict={a.verdict} />
                </td>
                <td class="num">{formatCount(a.risk_score)}</td>
                <td>
                  <ShortKey value={a.validator_hotkey} what="validator hotkey" />
                </td>
                <td>
                  <Time value={a.recorded_at} />
                </td>
                <td>
                  <code class="hash">{a.canonical_hash}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </TableRegion>
      )}

      <h3>Findings</h3>
      {artifact.findings === null || artifact.findings_withheld ? (
        <p class="state empty withheld">
          Findings withheld: this key's account is on the free plan. The findings exist; a paid plan's key shows them.
        </p>
      ) : artifact.findings.length === 0 ? (
        <Empty>No findings.</Empty>
      ) : (
        <ul class="findings">
          {groupFindings(artifact.findings).map((f, i) => (
            <li key={i}>
              <span class={`badge sev-${f.severity.toLowerCase()}`}>{f.severity}</span> <strong>{f.title}</strong> <code>{f.category}</code>
              {f.file ? (
                <>
                  {' '}
                  in <code>{f.file}</code>
                </>
              ) : null}{' '}
              <span class="muted reports">
                (reported by {formatCount(f.reports)} of {formatCount(artifact.attestations.length)} attestation{artifact.attestations.length === 1 ? '' : 's'})
              </span>
            </li>
          ))}
        </ul>
      )}

      <h3>Files</h3>
      {archive.files === null ? (
        <Empty>
          {archive.status === 'ok' ? 'A single file, not an archive.' : archive.status === 'unavailable' ? 'The bytes are not in this server’s store.' : `The archive cannot be read (${archive.error ?? 'corrupt'}).`}
        </Empty>
      ) : (
        <>
          <p class="hint">
            {formatCount(archive.files.length)} files in the {archive.format} archive{archive.truncated ? ' (listing truncated)' : ''}.
          </p>
          <TableRegion label="Files">
            <thead>
              <tr>
                <th scope="col">File</th>
                <th scope="col">Size (bytes)</th>
              </tr>
            </thead>
            <tbody>
              {archive.files.map((file, i) => (
                <tr key={`${i}-${file.name}`}>
                  <td>
                    <code>{file.name}</code>
                  </td>
                  <td class="num">{formatCount(file.size)}</td>
                </tr>
              ))}
            </tbody>
          </TableRegion>
        </>
      )}
    </section>
  );
}

function Results({ apiKey, purl, sha256 }: { apiKey: string; purl: string; sha256: string }) {
  const api = useApi();
  // Read once per lookup: an artifact's verdict changes only when a round closes. The key is part
  // of the resource's identity so a new key reads again, but it is never shown or logged.
  const { resource, reload } = useResource(
    `artifacts:${apiKey}:${purl}:${sha256}`,
    (signal) => (purl !== '' ? api.artifactsByPurl(apiKey, purl, signal) : api.artifactsByHash(apiKey, sha256, signal)),
    null,
  );
  return (
    <Show resource={resource} what="the artifact" reload={reload}>
      {(lookup) =>
        lookup.artifacts.length === 0 ? (
          purl !== '' ? (
            <Empty>
              No artifact is claimed under <code>{purl}</code> by this key's account or a trusted one.
            </Empty>
          ) : (
            <Empty>
              No artifact with the content hash <code class="hash">{sha256}</code> is readable by this key's account.
            </Empty>
          )
        ) : (
          <>
            <p class="hint">
              {formatCount(lookup.artifacts.length)} artifact{lookup.artifacts.length === 1 ? '' : 's'}{' '}
              {purl !== '' ? (
                <>
                  under <code>{purl}</code>
                </>
              ) : (
                <>
                  with the content hash <code class="hash">{sha256}</code>
                </>
              )}
              , oldest first
              {lookup.more ? ' (the first page only)' : ''}.
            </p>
            {lookup.artifacts.map((artifact) => (
              <ArtifactCard key={artifact.id} artifact={artifact} />
            ))}
          </>
        )
      }
    </Show>
  );
}

/** An artifact by package reference: its verdict, history, attestations, findings and files. */
export function ArtifactPage({ purl, sha256 }: { purl: string; sha256: string }) {
  const [apiKey, remember] = useRememberedKey();
  const reference = purl || sha256;
  return (
    <>
      <PageHeading title="Artifact" />
      <p>
        An artifact's published verdict and its history, looked up by package reference or content hash through the customer API (
        <code>GET /v1/artifacts?purl=</code> or <code>?sha256=</code>), which needs an API key with the <code>read</code> scope.
      </p>
      <Lookup key={`${purl}\n${sha256}`} purl={purl || sha256} apiKey={apiKey} onKey={remember} />
      {reference === '' ? null : apiKey === '' ? (
        <Empty>
          Enter an API key to look up <code class={purl === '' ? 'hash' : undefined}>{reference}</code>.
        </Empty>
      ) : (
        <Results apiKey={apiKey} purl={purl} sha256={sha256} />
      )}
    </>
  );
}
