import type { Track } from '@vigil/core';
import { POLL_SECONDS, type Leaderboard } from '../api.js';
import { Empty, Show } from '../components/status.js';
import { Stat, TableRegion } from '../components/table.js';
import { TrackTabs } from '../components/track-tabs.js';
import { Time } from '../components/time.js';
import { useApi } from '../lib/context.js';
import { formatCount, formatScore, trackLabel } from '../lib/format.js';
import { ShortKey } from '../components/copy.js';
import { useResource } from '../lib/use-resource.js';
import { PageHeading } from './page.js';

function Board({ data, track }: { data: Leaderboard; track: Track }) {
  const rows = data.rows.filter((r) => r.track === track);
  const counts: Partial<Record<Track, number>> = {};
  for (const row of data.rows) counts[row.track] = (counts[row.track] ?? 0) + 1;
  return (
    <>
      <TrackTabs base="/leaderboard" current={track} includeAll={false} counts={counts} />
      <dl class="stats">
        {/* The rows ranked, as the tabs count them; meta.total_agents also counts agents not ranked. */}
        <Stat label="Agents ranked, all tracks" value={formatCount(data.rows.length)} />
        <Stat label="Updated" value={<Time value={data.meta.last_update} />} />
      </dl>
      {rows.length === 0 ? (
        <Empty>No agent is ranked in {trackLabel(track)} yet.</Empty>
      ) : (
        <TableRegion label={`Leaderboard, ${trackLabel(track)}`}>
          <caption>{trackLabel(track)}</caption>
          <thead>
            <tr>
              <th scope="col">Rank</th>
              <th scope="col">Agent</th>
              <th scope="col">Miner</th>
              <th scope="col">Score</th>
              <th scope="col">Scored version</th>
              <th scope="col">Current version</th>
              <th scope="col">Attestations</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.hotkey}>
                <td class="num">{formatCount(row.rank)}</td>
                <th scope="row">
                  <a href={`/agents/${row.hotkey}?track=${row.track}`}>{row.name || '(unnamed)'}</a>
                </th>
                <td>
                  <ShortKey value={row.hotkey} />
                </td>
                <td class="num">
                  {row.score === null ? <span title="The agent's code changed since the round this score comes from">—</span> : formatScore(row.score)}
                </td>
                <td class="num">
                  {formatCount(row.version)}
                  {row.resubmitted_since ? (
                    <>
                      {' '}
                      <span class="badge resubmitted" title="A newer version was submitted after this score">
                        resubmitted since
                      </span>
                    </>
                  ) : null}
                </td>
                <td class="num">{formatCount(row.current_version)}</td>
                <td class="num">{formatCount(row.attestations)}</td>
                <td>
                  <Time value={row.updated_at} />
                </td>
              </tr>
            ))}
          </tbody>
        </TableRegion>
      )}
    </>
  );
}

export function LeaderboardPage({ track }: { track: Track }) {
  const api = useApi();
  const { resource, reload } = useResource('leaderboard', (signal) => api.leaderboard(signal), POLL_SECONDS.leaderboard);
  return (
    <>
      <PageHeading title="Leaderboard" />
      <Show resource={resource} what="the leaderboard" reload={reload}>
        {(data) => <Board data={data} track={track} />}
      </Show>
    </>
  );
}
