import type { Track } from '@vigil/core';
import { Show } from '../components/status.js';
import { Stat } from '../components/table.js';
import { useApi } from '../lib/context.js';
import { formatCount, formatScore, trackLabel } from '../lib/format.js';
import { useResource } from '../lib/use-resource.js';
import { FullKey } from '../components/copy.js';
import { PageHeading } from './page.js';

const STATE_LABELS = {
  new: 'New: enters its first round',
  winner: 'Winner: carried into the next round',
  updated: 'Updated: new code enters the next round',
  excluded: 'Excluded from the next round',
  inactive: 'Inactive',
} as const;

/** An agent's eligibility for the next round. Not cached by the server: read once per visit. */
export function AgentPage({ hotkey, track }: { hotkey: string; track: Track | undefined }) {
  const api = useApi();
  const { resource, reload } = useResource(`agent:${hotkey}:${track ?? ''}`, (signal) => api.agentEligibility(hotkey, track, signal), null);
  return (
    <>
      <PageHeading title="Agent eligibility" />
      <p class="crumbs">
        <a href={track ? `/agents?track=${track}` : '/agents'}>All agents</a>
      </p>
      <p class="mono-note">
        Miner <FullKey value={hotkey} />
      </p>
      <Show resource={resource} what="the agent's eligibility" reload={reload}>
        {(agent) => (
          <>
            <h2>{agent.name || '(unnamed)'}</h2>
            <p class={`eligibility ${agent.qualifies_next_round ? 'yes' : 'no'}`}>
              {agent.qualifies_next_round ? 'Qualifies for the next round.' : 'Does not qualify for the next round.'}{' '}
              <strong>{STATE_LABELS[agent.state]}</strong>: {agent.reason}
            </p>
            <dl class="stats">
              <Stat label="State" value={agent.state} />
              <Stat label="Track" value={trackLabel(agent.track)} />
              <Stat label="Status" value={agent.status} />
              <Stat label="Version" value={formatCount(agent.version)} />
              <Stat label="Score" value={formatScore(agent.score)} />
              <Stat label="Rounds entered" value={formatCount(agent.rounds.length)} />
            </dl>
            <dl class="hashes">
              <dt>Agent hash</dt>
              <dd>
                <code class="hash">{agent.agent_hash}</code>
              </dd>
              <dt>Hash frozen into its last round</dt>
              <dd>
                <code class="hash">{agent.last_round_hash}</code>
                {agent.last_round_hash === agent.agent_hash ? ' (same code)' : ' (code changed since)'}
              </dd>
              <dt>Rounds</dt>
              <dd>{agent.rounds.length === 0 ? 'none yet' : agent.rounds.map((n) => formatCount(n)).join(', ')}</dd>
            </dl>
          </>
        )}
      </Show>
    </>
  );
}
