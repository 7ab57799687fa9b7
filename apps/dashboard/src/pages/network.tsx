import { TRACKS, VERDICTS } from '@vigil/core';
import { useMemo } from 'preact/hooks';
import { POLL_SECONDS, type NetworkDashboard } from '../api.js';
import { Chart } from '../components/chart.js';
import { Show } from '../components/status.js';
import { BarList, Stat, TableRegion } from '../components/table.js';
import { Time } from '../components/time.js';
import { useApi } from '../lib/context.js';
import { formatCount, formatShare, trackLabel } from '../lib/format.js';
import { useResource } from '../lib/use-resource.js';
import { PageHeading } from './page.js';

const VERDICT_TONE = { ALLOW: 'allow', WARN: 'warn', BLOCK: 'block' } as const;

function Throughput({ throughput }: { throughput: number[] }) {
  // Bucket i of 24 is (23 - i) hours before the last update: the last bucket is the current hour.
  const x = useMemo(() => throughput.map((_v, i) => i - (throughput.length - 1)), [throughput]);
  const series = useMemo(() => [{ label: 'Attestations', values: throughput, colorVar: '--series-1' }], [throughput]);
  return (
    <Chart
      caption="Attestations per hour, last 24 hours"
      x={x}
      time={false}
      xLabel="hours before the last update"
      series={series}
      bars
      table={
        <TableRegion label="Attestations per hour">
          <thead>
            <tr>
              <th scope="col">Hour</th>
              <th scope="col">Attestations</th>
            </tr>
          </thead>
          <tbody>
            {throughput.map((value, i) => (
              <tr key={i}>
                <td>{i === throughput.length - 1 ? 'current hour' : `${throughput.length - 1 - i} h before`}</td>
                <td class="num">{formatCount(value)}</td>
              </tr>
            ))}
          </tbody>
        </TableRegion>
      }
    />
  );
}

function NetworkView({ data }: { data: NetworkDashboard }) {
  const verdictTotal = VERDICTS.reduce((sum, v) => sum + data.verdicts[v], 0);
  const trackTotal = data.track_mix.reduce((sum, t) => sum + t.value, 0);
  return (
    <>
      <p class="updated">
        Updated <Time value={data.last_update} />
      </p>
      <section aria-labelledby="network-figures">
        <h2 id="network-figures">The network now</h2>
        <dl class="stats">
          <Stat label="Active validators" value={formatCount(data.validators.active)} note={`of ${formatCount(data.validators.total)}`} />
          <Stat label="Miners" value={formatCount(data.miners.total)} />
          <Stat label="Agents" value={formatCount(data.agents.total)} />
          <Stat label="Attestations" value={formatCount(data.attestations)} />
          <Stat label="Tasks, 24 h" value={formatCount(data.tasks_24h)} />
          <Stat label="Re-runs, 24 h" value={formatCount(data.reruns_24h)} />
        </dl>
      </section>
      <section aria-labelledby="network-agents">
        <h2 id="network-agents">Agents by track</h2>
        <dl class="stats">
          {TRACKS.map((track) => (
            <Stat key={track} label={trackLabel(track)} value={formatCount(data.agents.by_track[track])} />
          ))}
        </dl>
      </section>
      <section aria-labelledby="network-throughput">
        <h2 id="network-throughput">Throughput</h2>
        <Throughput throughput={data.throughput} />
      </section>
      <div class="columns">
        <section aria-labelledby="network-verdicts">
          <h2 id="network-verdicts">Verdict mix</h2>
          <BarList
            label="Verdicts"
            items={VERDICTS.map((v) => ({
              label: v,
              value: data.verdicts[v],
              display: formatCount(data.verdicts[v]),
              share: formatShare(data.verdicts[v], verdictTotal),
              tone: VERDICT_TONE[v],
            }))}
          />
        </section>
        <section aria-labelledby="network-tracks">
          <h2 id="network-tracks">Track mix</h2>
          {data.track_mix.length === 0 ? (
            <p class="state empty">No attestations yet.</p>
          ) : (
            <BarList
              label="Tracks"
              items={data.track_mix.map((t) => ({
                label: trackLabel(t.label),
                value: t.value,
                display: formatCount(t.value),
                share: formatShare(t.value, trackTotal),
              }))}
            />
          )}
        </section>
      </div>
    </>
  );
}

export function NetworkPage() {
  const api = useApi();
  const { resource, reload } = useResource('network', (signal) => api.network(signal), POLL_SECONDS.network);
  return (
    <>
      <PageHeading title="Network" />
      <Show resource={resource} what="the network dashboard" reload={reload}>
        {(data) => <NetworkView data={data} />}
      </Show>
    </>
  );
}
