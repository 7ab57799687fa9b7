import { POLL_SECONDS, type RoundsListResponse, type RoundsStatusResponse } from '../api.js';
import { CopyButton } from '../components/copy.js';
import { Empty, Show } from '../components/status.js';
import { Stat, TableRegion } from '../components/table.js';
import { Countdown, Time } from '../components/time.js';
import { useApi } from '../lib/context.js';
import { formatCount, formatScore, shortKey, trackLabel } from '../lib/format.js';
import { useNow, useResource } from '../lib/use-resource.js';
import { PageHeading } from './page.js';

type StatusAt = RoundsStatusResponse & { receivedAt: number };

const PHASE_LABELS = { submission: 'Submission', evaluation: 'Evaluation', complete: 'Complete' } as const;

/**
 * Deadlines are counted from when the answer arrived (the server's seconds_until_*), so a reader's
 * wrong clock does not move them; the countdown then ticks locally.
 */
function CurrentRounds({ status }: { status: StatusAt }) {
  const now = useNow();
  const serverTime = status.server_time.getTime();
  return (
    <>
      <p class="updated">
        Server time <Time value={status.server_time} />
      </p>
      {status.tracks.length === 0 ? (
        <Empty>No round has been opened yet.</Empty>
      ) : (
        <ul class="cards">
          {status.tracks.map((round) => {
            const submissionLeft = (round.submission_closes_at.getTime() - serverTime) / 1000;
            return (
              <li key={round.track} class="card">
                <h3>
                  {trackLabel(round.track)}: round {formatCount(round.round_number)}
                </h3>
                <dl class="facts">
                  <Stat label="Phase" value={<span class={`badge phase-${round.phase}`}>{PHASE_LABELS[round.phase]}</span>} />
                  <Stat
                    label="Closes in"
                    value={
                      round.seconds_until_close === null ? (
                        'closed'
                      ) : (
                        <Countdown deadline={status.receivedAt + round.seconds_until_close * 1000} now={now} />
                      )
                    }
                  />
                  <Stat
                    label="Submissions"
                    value={
                      round.accepting_submissions ? (
                        <>
                          open, closing in <Countdown deadline={status.receivedAt + submissionLeft * 1000} now={now} />
                        </>
                      ) : (
                        'closed'
                      )
                    }
                  />
                  <Stat label="Opened" value={<Time value={round.opened_at} />} />
                  <Stat label="Submissions close" value={<Time value={round.submission_closes_at} />} />
                  {round.closed_at ? <Stat label="Closed" value={<Time value={round.closed_at} />} /> : null}
                  <Stat label="Participants" value={formatCount(round.participants)} />
                  <Stat label="Scored agents" value={formatCount(round.scored_agents)} />
                </dl>
                {round.status === 'closed' ? (
                  <p>
                    <a href={`/rounds/${round.round_id}`}>Scores of round {formatCount(round.round_number)}</a>
                  </p>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      <p class="next-round">
        {status.next_round_opens_at === null || status.seconds_until_next_round === null ? (
          'No next round is scheduled.'
        ) : (
          <>
            Next round opens <Time value={status.next_round_opens_at} />, in{' '}
            <Countdown deadline={status.receivedAt + status.seconds_until_next_round * 1000} now={now} />.
          </>
        )}
      </p>
    </>
  );
}

function ClosedRounds({ list }: { list: RoundsListResponse }) {
  if (list.rounds.length === 0) return <Empty>No round has closed yet.</Empty>;
  return (
    <>
      <p>
        The {formatCount(list.rounds.length)} most recent of {formatCount(list.meta.total)} closed rounds, newest first.
      </p>
      <TableRegion label="Closed rounds">
        <thead>
          <tr>
            <th scope="col">Round</th>
            <th scope="col">Track</th>
            <th scope="col">Closed</th>
            <th scope="col">Miners</th>
            <th scope="col">Top five</th>
          </tr>
        </thead>
        <tbody>
          {list.rounds.map((round) => (
            <tr key={round.round_id}>
              <th scope="row">
                <a href={`/rounds/${round.round_id}`}>Round {formatCount(round.round_number)}</a>
              </th>
              <td>{trackLabel(round.track)}</td>
              <td>
                <Time value={round.closed_at} />
              </td>
              <td class="num">{formatCount(round.miners)}</td>
              <td>
                {round.winners.length === 0 ? (
                  'nobody scored'
                ) : (
                  <ol class="winners">
                    {round.winners.map((w) => (
                      <li key={w.hotkey} value={w.rank}>
                        <a href={`/rounds/${round.round_id}/miners/${w.hotkey}`} title={w.hotkey}>
                          {w.name || shortKey(w.hotkey)}
                        </a>{' '}
                        <span class="score">{formatScore(w.score)}</span>{' '}
                        <CopyButton value={w.hotkey} label={`Copy hotkey ${w.hotkey}`} />
                      </li>
                    ))}
                  </ol>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </TableRegion>
    </>
  );
}

export function RoundsPage() {
  const api = useApi();
  const status = useResource(
    'rounds-status',
    async (signal): Promise<StatusAt> => ({ ...(await api.roundsStatus(signal)), receivedAt: Date.now() }),
    POLL_SECONDS.roundsStatus,
  );
  const closed = useResource('rounds', (signal) => api.closedRounds(signal), POLL_SECONDS.rounds);
  return (
    <>
      <PageHeading title="Rounds" />
      <section aria-labelledby="rounds-current">
        <h2 id="rounds-current">Current rounds</h2>
        <Show resource={status.resource} what="round status" reload={status.reload}>
          {(data) => <CurrentRounds status={data} />}
        </Show>
      </section>
      <section aria-labelledby="rounds-closed">
        <h2 id="rounds-closed">Closed rounds</h2>
        <Show resource={closed.resource} what="closed rounds" reload={closed.reload}>
          {(data) => <ClosedRounds list={data} />}
        </Show>
      </section>
    </>
  );
}
