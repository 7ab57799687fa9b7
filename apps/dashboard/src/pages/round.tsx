import { Empty, Show } from '../components/status.js';
import { Stat, TableRegion } from '../components/table.js';
import { Time } from '../components/time.js';
import { useApi } from '../lib/context.js';
import { formatCount, formatScore, shortKey, trackLabel } from '../lib/format.js';
import { CopyButton } from '../components/copy.js';
import { useResource } from '../lib/use-resource.js';
import { PageHeading } from './page.js';

/** A closed round's full ranking. Not cached by the server, and a closed round never changes: read once. */
export function RoundPage({ roundId }: { roundId: string }) {
  const api = useApi();
  const { resource, reload } = useResource(`round:${roundId}`, (signal) => api.roundScores(roundId, signal), null);
  return (
    <>
      <PageHeading title="Round scores" />
      <p class="crumbs">
        <a href="/rounds">All rounds</a>
      </p>
      <Show resource={resource} what="the round's scores" reload={reload}>
        {(round) => (
          <>
            <dl class="stats">
              <Stat label="Round" value={formatCount(round.round_number)} />
              <Stat label="Track" value={trackLabel(round.track)} />
              <Stat label="Closed" value={<Time value={round.closed_at} />} />
              <Stat label="Scored agents" value={formatCount(round.scores.length)} />
            </dl>
            <p class="mono-note">
              Round id <code>{round.round_id}</code>
            </p>
            {round.scores.length === 0 ? (
              <Empty>No agent was scored in this round.</Empty>
            ) : (
              <TableRegion label="Scores">
                <thead>
                  <tr>
                    <th scope="col">Rank</th>
                    <th scope="col">Agent</th>
                    <th scope="col">Miner</th>
                    <th scope="col">Score</th>
                    <th scope="col">Validators</th>
                  </tr>
                </thead>
                <tbody>
                  {round.scores.map((s) => (
                    <tr key={s.hotkey}>
                      <td class="num">{formatCount(s.rank)}</td>
                      <th scope="row">{s.name || '(unnamed)'}</th>
                      <td>
                        <a href={`/rounds/${round.round_id}/miners/${s.hotkey}`} title={s.hotkey}>
                          <code>{shortKey(s.hotkey)}</code>
                        </a>{' '}
                        <CopyButton value={s.hotkey} label={`Copy hotkey ${s.hotkey}`} />
                      </td>
                      <td class="num">{formatScore(s.score)}</td>
                      <td class="num">{formatCount(s.validators)}</td>
                    </tr>
                  ))}
                </tbody>
              </TableRegion>
            )}
          </>
        )}
      </Show>
    </>
  );
}
