import { SEVERITIES } from '@vigil/core';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { POLL_SECONDS, type ThreatTrends } from '../api.js';
import { Chart } from '../components/chart.js';
import { Empty, Show } from '../components/status.js';
import { BarList, Stat, TableRegion } from '../components/table.js';
import { Day, Time } from '../components/time.js';
import { useApi } from '../lib/context.js';
import { formatCount, formatShare, trackLabel } from '../lib/format.js';
import { DEFAULT_DAYS, MAX_DAYS, MIN_DAYS, navigate } from '../lib/router.js';
import { useResource } from '../lib/use-resource.js';
import { PageHeading } from './page.js';

export const DAY_PRESETS = [1, 7, 30, 90, 180] as const;

const SERIES = [
  { key: 'scanned', label: 'Scanned', colorVar: '--series-1' },
  { key: 'flagged', label: 'Flagged', colorVar: '--series-2' },
  { key: 'blocked', label: 'Blocked', colorVar: '--series-block' },
  { key: 'warned', label: 'Warned', colorVar: '--series-warn' },
] as const;

const SEVERITY_LABELS = { CRIT: 'Critical', HIGH: 'High', MED: 'Medium', LOW: 'Low' } as const;
const PLANE_LABELS: Record<string, string> = { prompt: 'Prompt', install: 'Install', runtime: 'Runtime' };

function DaysSelector({ days }: { days: number }) {
  const [text, setText] = useState(String(days));
  const [invalid, setInvalid] = useState(false);
  // Follows the address (a preset, Back): the form stays mounted so keyboard focus is kept.
  useEffect(() => {
    setText(String(days));
    setInvalid(false);
  }, [days]);
  return (
    <form
      class="days"
      aria-label="Period"
      // Our own message (announced, next to the field) instead of the browser's transient bubble.
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const value = Number(text);
        if (!Number.isInteger(value) || value < MIN_DAYS || value > MAX_DAYS) {
          setInvalid(true);
          return;
        }
        setInvalid(false);
        navigate(`/threats?days=${value}`);
      }}
    >
      <ul class="segmented" aria-label="Common periods">
        {DAY_PRESETS.map((preset) => (
          <li key={preset}>
            <a href={`/threats?days=${preset}`} aria-current={preset === days ? 'page' : undefined}>
              {preset === 1 ? '1 day' : `${preset} days`}
            </a>
          </li>
        ))}
      </ul>
      <label for="days-input">Days (1–180)</label>
      <input
        id="days-input"
        type="number"
        inputMode="numeric"
        min={MIN_DAYS}
        max={MAX_DAYS}
        step={1}
        value={text}
        aria-invalid={invalid ? 'true' : undefined}
        aria-describedby={invalid ? 'days-error' : undefined}
        onInput={(event) => setText((event.target as HTMLInputElement).value)}
      />
      <button type="submit">Show</button>
      {invalid ? (
        <p id="days-error" class="field-error" role="alert">
          Enter a whole number of days from 1 to 180.
        </p>
      ) : null}
    </form>
  );
}

function change(now: number, before: number): string {
  if (before === 0) return now === 0 ? 'no change' : 'new this week';
  const ratio = (now - before) / before;
  return `${ratio >= 0 ? '+' : '−'}${formatShare(Math.abs(ratio), 1)} on the week before`;
}

function TrendsView({ data }: { data: ThreatTrends }) {
  const x = useMemo(() => data.series.map((d) => Date.parse(`${d.day}T00:00:00Z`) / 1000), [data]);
  const series = useMemo(() => SERIES.map((s) => ({ label: s.label, values: data.series.map((d) => d[s.key]), colorVar: s.colorVar })), [data]);
  const severityTotal = SEVERITIES.reduce((sum, s) => sum + data.severity[s], 0);
  const planeTotal = data.by_plane.reduce((sum, p) => sum + p.value, 0);
  const trackTotal = data.by_track.reduce((sum, t) => sum + t.value, 0);
  const categoryTotal = data.categories.reduce((sum, c) => sum + c.count, 0);
  return (
    <>
      <p class="updated">
        Last {formatCount(data.days)} {data.days === 1 ? 'day' : 'days'}, updated <Time value={data.last_update} />
      </p>
      <section aria-labelledby="threat-figures">
        <h2 id="threat-figures">In this period</h2>
        <dl class="stats">
          <Stat label="Attestations" value={formatCount(data.attestations)} />
          <Stat label="Artifacts scanned" value={formatCount(data.scanned)} />
          <Stat label="Flagged artifacts" value={formatCount(data.totals.flagged_artifacts)} />
          <Stat label="Blocked" value={formatCount(data.totals.blocked)} />
          <Stat label="Warned" value={formatCount(data.totals.warned)} />
          <Stat label="Findings, last 7 days" value={formatCount(data.week.findings)} note={change(data.week.findings, data.week.prev_findings)} />
          <Stat label="Findings, the 7 days before" value={formatCount(data.week.prev_findings)} />
        </dl>
      </section>
      <section aria-labelledby="threat-series">
        <h2 id="threat-series">Day by day</h2>
        {data.series.length === 0 ? (
          <Empty>No artifacts were scanned in this period.</Empty>
        ) : (
          <Chart
            caption="Scanned, flagged, blocked and warned per day (UTC days)"
            x={x}
            time
            xLabel="day (UTC)"
            series={series}
            table={
              <TableRegion label="Per day">
                <thead>
                  <tr>
                    <th scope="col">Day</th>
                    {SERIES.map((s) => (
                      <th key={s.key} scope="col">
                        {s.label}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {data.series.map((d) => (
                    <tr key={d.day}>
                      <th scope="row">
                        <Day value={d.day} />
                      </th>
                      {SERIES.map((s) => (
                        <td key={s.key} class="num">
                          {formatCount(d[s.key])}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </TableRegion>
            }
          />
        )}
      </section>
      <div class="columns">
        <section aria-labelledby="threat-severity">
          <h2 id="threat-severity">Findings by severity</h2>
          <BarList
            label="Severity"
            items={SEVERITIES.map((s) => ({
              label: SEVERITY_LABELS[s],
              value: data.severity[s],
              display: formatCount(data.severity[s]),
              share: formatShare(data.severity[s], severityTotal),
              tone: `sev-${s.toLowerCase()}`,
            }))}
          />
        </section>
        <section aria-labelledby="threat-planes">
          <h2 id="threat-planes">Findings by plane</h2>
          <BarList
            label="Plane"
            items={data.by_plane.map((p) => ({
              label: PLANE_LABELS[p.label] ?? p.label,
              value: p.value,
              display: formatCount(p.value),
              share: formatShare(p.value, planeTotal),
            }))}
          />
        </section>
        <section aria-labelledby="threat-tracks">
          <h2 id="threat-tracks">Findings by track</h2>
          <BarList
            label="Track"
            items={data.by_track.map((t) => ({
              label: trackLabel(t.label),
              value: t.value,
              display: formatCount(t.value),
              share: formatShare(t.value, trackTotal),
            }))}
          />
        </section>
      </div>
      <section aria-labelledby="threat-categories">
        <h2 id="threat-categories">Categories</h2>
        {data.categories.length === 0 ? (
          <Empty>No findings in this period.</Empty>
        ) : (
          <TableRegion label="Findings by category">
            <thead>
              <tr>
                <th scope="col">Category</th>
                <th scope="col">Findings</th>
                <th scope="col">Share</th>
              </tr>
            </thead>
            <tbody>
              {data.categories.map((c) => (
                <tr key={c.category}>
                  <th scope="row">
                    <code>{c.category}</code>
                  </th>
                  <td class="num">{formatCount(c.count)}</td>
                  <td class="num">{formatShare(c.count, categoryTotal)}</td>
                </tr>
              ))}
            </tbody>
          </TableRegion>
        )}
      </section>
    </>
  );
}

const dayCount = (days: number) => `${formatCount(days)} ${days === 1 ? 'day' : 'days'}`;

/** Why the page shows another number of days than the address asked for. */
function adjustedNote(asked: string, days: number): string {
  if (!/^\d+$/.test(asked)) {
    return `The address’s days “${asked}” is not a number of days from ${MIN_DAYS} to ${MAX_DAYS}, so this shows the default, ${dayCount(DEFAULT_DAYS)}.`;
  }
  return Number(asked) > MAX_DAYS
    ? `The address asked for ${asked} days; the most is ${MAX_DAYS}, so this shows ${dayCount(days)}.`
    : `The address asked for ${asked} days; the least is ${MIN_DAYS}, so this shows ${dayCount(days)}.`;
}

export function ThreatsPage({ days, adjustedFrom }: { days: number; adjustedFrom: string | null }) {
  const api = useApi();
  const { resource, reload } = useResource(`threats:${days}`, (signal) => api.threats(days, signal), POLL_SECONDS.threats);
  // The address says what is shown: `?days=500` becomes `?days=180` in place (no new history entry).
  useEffect(() => {
    if (adjustedFrom === null) return;
    const url = new URL(location.href);
    url.searchParams.set('days', String(days));
    history.replaceState(history.state, '', url.pathname + url.search + url.hash);
  }, [adjustedFrom, days]);
  return (
    <>
      <PageHeading title="Threats" />
      <DaysSelector days={days} />
      {adjustedFrom !== null ? (
        <p class="state days-adjusted" role="status">
          {adjustedNote(adjustedFrom, days)}
        </p>
      ) : null}
      <Show resource={resource} what="threat trends" reload={reload}>
        {(data) => <TrendsView data={data} />}
      </Show>
    </>
  );
}
