import { useState } from 'preact/hooks';
import type { Track } from '@vigil/core';
import { POLL_SECONDS, type AgentsResponse } from '../api.js';
import { Empty, Show } from '../components/status.js';
import { TableRegion } from '../components/table.js';
import { TrackTabs } from '../components/track-tabs.js';
import { Time } from '../components/time.js';
import { useApi } from '../lib/context.js';
import { formatCount, formatScore, trackLabel } from '../lib/format.js';
import { ShortKey } from '../components/copy.js';
import { navigate } from '../lib/router.js';
import { useResource } from '../lib/use-resource.js';
import { PageHeading } from './page.js';

function Lookup({ track }: { track: Track | undefined }) {
  const [hotkey, setHotkey] = useState('');
  return (
    <form
      class="inline-form"
      onSubmit={(event) => {
        event.preventDefault();
        const key = hotkey.trim();
        if (key !== '') navigate(`/agents/${encodeURIComponent(key)}${track ? `?track=${track}` : ''}`);
      }}
    >
      <label for="agent-hotkey">Eligibility of a miner's agent (hotkey)</label>
      <input id="agent-hotkey" type="text" spellcheck={false} autoComplete="off" value={hotkey} onInput={(e) => setHotkey((e.target as HTMLInputElement).value)} />
      <button type="submit">Check</button>
    </form>
  );
}

function AgentsTable({ data, track }: { data: AgentsResponse; track: Track | undefined }) {
  if (data.agents.length === 0) return <Empty>No active agent{track ? ` in ${trackLabel(track)}` : ''}.</Empty>;
  return (
    <TableRegion label="Agents">
      <thead>
        <tr>
          <th scope="col">Agent</th>
          <th scope="col">Miner</th>
          <th scope="col">Track</th>
          <th scope="col">Version</th>
          <th scope="col">Score</th>
          <th scope="col">Runs</th>
          <th scope="col">Rounds</th>
          <th scope="col">Provider</th>
          <th scope="col">Updated</th>
        </tr>
      </thead>
      <tbody>
        {data.agents.map((agent) => (
          <tr key={`${agent.hotkey}:${agent.track}`}>
            <th scope="row">
              <a href={`/agents/${agent.hotkey}?track=${agent.track}`}>{agent.name || '(unnamed)'}</a>
            </th>
            <td>
              <ShortKey value={agent.hotkey} />
            </td>
            <td>{trackLabel(agent.track)}</td>
            <td class="num">{formatCount(agent.version)}</td>
            <td class="num">{agent.evaluated ? formatScore(agent.score) : 'not evaluated'}</td>
            <td class="num">{formatCount(agent.runs)}</td>
            <td class="num">{formatCount(agent.rounds.length)}</td>
            <td>{agent.provider}</td>
            <td>
              <Time value={agent.updated_at} />
            </td>
          </tr>
        ))}
      </tbody>
    </TableRegion>
  );
}

export function AgentsPage({ track }: { track: Track | undefined }) {
  const api = useApi();
  const { resource, reload } = useResource(`agents:${track ?? 'all'}`, (signal) => api.agents(track, signal), POLL_SECONDS.agents);
  return (
    <>
      <PageHeading title="Agents" />
      <TrackTabs base="/agents" current={track} includeAll />
      <Lookup track={track} />
      <Show resource={resource} what="agents" reload={reload}>
        {(data) => <AgentsTable data={data} track={track} />}
      </Show>
    </>
  );
}
