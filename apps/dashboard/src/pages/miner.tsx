import { Empty, Show } from '../components/status.js';
import { Stat, TableRegion } from '../components/table.js';
import { useApi } from '../lib/context.js';
import { formatCount, formatScore, trackLabel } from '../lib/format.js';
import { useResource } from '../lib/use-resource.js';
import type { RoundAttestations } from '../api.js';
import { FullKey } from '../components/copy.js';
import { PageHeading } from './page.js';

function Tasks({ data }: { data: RoundAttestations }) {
  if (data.tasks.length === 0) return <Empty>This miner has no attestations in this round.</Empty>;
  return (
    <TableRegion label="Attestations">
      <thead>
        <tr>
          <th scope="col">Verdict</th>
          <th scope="col">Risk score</th>
          <th scope="col">Canonical hash</th>
          <th scope="col">Findings</th>
        </tr>
      </thead>
      <tbody>
        {data.tasks.map((task) => (
          <tr key={task.canonical_hash}>
            <td>
              <span class={`badge verdict-${task.verdict.toLowerCase()}`}>{task.verdict}</span>
            </td>
            <td class="num">{formatCount(task.risk_score)}</td>
            <td>
              <code class="hash" title={task.canonical_hash}>
                {task.canonical_hash}
              </code>
            </td>
            <td>
              {task.findings.length === 0 ? (
                'none'
              ) : (
                <ul class="findings">
                  {task.findings.map((f, i) => (
                    <li key={i}>
                      <span class={`badge sev-${f.severity.toLowerCase()}`}>{f.severity}</span> <strong>{f.title}</strong>{' '}
                      <span class="muted">
                        {f.category}
                        {f.file ? <> · <code>{f.file}</code></> : null}
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </TableRegion>
  );
}

/** One miner's attestations in a closed round. The server caches closed rounds for 300 s; they never change: read once. */
export function MinerPage({ roundId, hotkey }: { roundId: string; hotkey: string }) {
  const api = useApi();
  const { resource, reload } = useResource(`miner:${roundId}:${hotkey}`, (signal) => api.roundAttestations(roundId, hotkey, signal), null);
  return (
    <>
      <PageHeading title="Attestations of a miner" />
      <p class="crumbs">
        <a href="/rounds">All rounds</a> · <a href={`/rounds/${roundId}`}>This round's scores</a>
      </p>
      <p class="mono-note">
        Miner <FullKey value={hotkey} />
      </p>
      <Show resource={resource} what="the attestations" reload={reload}>
        {(data) =>
          data.round_status !== 'closed' ? (
            <Empty>
              {data.round_status === 'open'
                ? 'This round is still open: its attestations are published when it closes.'
                : 'No closed round with this id and miner is known.'}
            </Empty>
          ) : (
            <>
              <dl class="stats">
                <Stat label="Track" value={trackLabel(data.track)} />
                <Stat label="Score" value={formatScore(data.score)} />
                <Stat label="Runs" value={formatCount(data.runs)} />
                <Stat label="Tasks" value={formatCount(data.tasks.length)} />
                <Stat label="Policy version" value={data.policy_version || '—'} />
              </dl>
              {data.failure_reason ? (
                <p class="state error-inline">
                  Not scored: {data.failure_reason}
                </p>
              ) : null}
              <Tasks data={data} />
            </>
          )
        }
      </Show>
    </>
  );
}
