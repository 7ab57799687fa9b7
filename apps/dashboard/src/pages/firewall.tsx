import type { FirewallStats } from '../api.js';
import { KeyForm } from '../components/key-form.js';
import { Empty, Show } from '../components/status.js';
import { Stat, TableRegion } from '../components/table.js';
import { Day, Time } from '../components/time.js';
import { useApi } from '../lib/context.js';
import { formatCount } from '../lib/format.js';
import { useRememberedKey } from '../lib/remembered-key.js';
import { navigate } from '../lib/router.js';
import { useResource } from '../lib/use-resource.js';
import { PageHeading } from './page.js';

/** What each reason class means, in the words of docs/firewall.md's decision log. */
const REASON_KINDS: Record<string, string> = {
  verdict: "Vigil's verdict",
  policy: 'the named policy',
  undecided: 'no verdict yet (the mode decided)',
  vigil_unavailable: 'Vigil unavailable (the mode decided)',
  hidden: 'every version hidden',
  filtered: 'versions hidden from metadata',
};

const DECISIONS: Record<string, string> = { allow: 'allowed', block: 'refused', filter: 'filtered' };

function DaysField({ days }: { days: number }) {
  return (
    <>
      <label for="firewall-days">Days</label>
      <select id="firewall-days" value={String(days)} onChange={(e) => navigate(`/firewall?days=${(e.target as HTMLSelectElement).value}`)}>
        {[1, 7, 30, 90].map((d) => (
          <option key={d} value={String(d)}>
            {d === 1 ? 'today' : `last ${d} days`}
          </option>
        ))}
      </select>
    </>
  );
}

function Stats({ stats, days }: { stats: FirewallStats; days: number }) {
  const total = stats.totals.allow + stats.totals.block + stats.totals.filter;
  if (total === 0) {
    return (
      <Empty>
        No firewall decision was reported for this key's account since <Day value={stats.since} />. Decisions are counted when the firewall reports them:{' '}
        <code>vigil-server firewall</code> always does, <code>vigil firewall --report</code> on request.
      </Empty>
    );
  }
  return (
    <>
      <dl class="stats" aria-label="Decisions">
        <Stat label="Allowed" value={formatCount(stats.totals.allow)} />
        <Stat label="Refused" value={formatCount(stats.totals.block)} />
        <Stat label="Filtered" value={formatCount(stats.totals.filter)} note="metadata served with versions hidden" />
      </dl>
      <h2>By day</h2>
      <TableRegion label="Decisions by day">
        <thead>
          <tr>
            <th scope="col">Day (UTC)</th>
            <th scope="col" class="num">Allowed</th>
            <th scope="col" class="num">Refused</th>
            <th scope="col" class="num">Filtered</th>
          </tr>
        </thead>
        <tbody>
          {stats.days.map((d) => (
            <tr key={d.day}>
              <td>
                <Day value={d.day} />
              </td>
              <td class="num">{formatCount(d.allow)}</td>
              <td class="num">{formatCount(d.block)}</td>
              <td class="num">{formatCount(d.filter)}</td>
            </tr>
          ))}
        </tbody>
      </TableRegion>
      <h2>By reason</h2>
      <TableRegion label="Decisions by reason">
        <thead>
          <tr>
            <th scope="col">Decision</th>
            <th scope="col">Reason</th>
            <th scope="col" class="num">Count</th>
          </tr>
        </thead>
        <tbody>
          {stats.reasons.map((r) => (
            <tr key={`${r.decision}:${r.reason_kind}`}>
              <td>{DECISIONS[r.decision] ?? r.decision}</td>
              <td>{REASON_KINDS[r.reason_kind] ?? r.reason_kind}</td>
              <td class="num">{formatCount(r.count)}</td>
            </tr>
          ))}
        </tbody>
      </TableRegion>
      <h2>Most refused packages</h2>
      {stats.packages.length === 0 ? (
        <Empty>No refusal in the last {days === 1 ? 'day' : `${days} days`}.</Empty>
      ) : (
        <TableRegion label="Most refused packages">
          <thead>
            <tr>
              <th scope="col">Package</th>
              <th scope="col" class="num">Refused</th>
              <th scope="col" class="num">Allowed</th>
              <th scope="col" class="num">Filtered</th>
            </tr>
          </thead>
          <tbody>
            {stats.packages.map((p) => (
              <tr key={`${p.ecosystem}:${p.package}`}>
                <td>
                  <code>
                    {p.ecosystem}:{p.package}
                  </code>
                </td>
                <td class="num">{formatCount(p.block)}</td>
                <td class="num">{formatCount(p.allow)}</td>
                <td class="num">{formatCount(p.filter)}</td>
              </tr>
            ))}
          </tbody>
        </TableRegion>
      )}
      {stats.recent_refusals.length === 0 ? null : (
        <>
          <h2>Recent refusals</h2>
          <TableRegion label="Recent refusals">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Package</th>
                <th scope="col">Version</th>
                <th scope="col">Reason</th>
                <th scope="col">Verdict</th>
                <th scope="col">Request</th>
              </tr>
            </thead>
            <tbody>
              {stats.recent_refusals.map((r) => (
                <tr key={r.request_id}>
                  <td>
                    <Time value={r.time} />
                  </td>
                  <td>
                    <code>
                      {r.ecosystem}:{r.package}
                    </code>
                  </td>
                  <td>{r.version ?? 'every version'}</td>
                  <td>{r.reason}</td>
                  <td>{r.verdict ? <span class={`badge verdict-${r.verdict.toLowerCase()}`}>{r.verdict}</span> : '—'}</td>
                  <td>
                    <code>{r.request_id}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </TableRegion>
        </>
      )}
    </>
  );
}

function Results({ apiKey, days }: { apiKey: string; days: number }) {
  const api = useApi();
  // Read again every minute: a firewall reports its decisions within seconds.
  const { resource, reload } = useResource(`firewall:${apiKey}:${days}`, (signal) => api.firewallStats(apiKey, days, signal), 60);
  return (
    <Show resource={resource} what="the firewall's decisions" reload={reload}>
      {(stats) => <Stats stats={stats} days={days} />}
    </Show>
  );
}

/** The account's registry firewall decisions (docs/firewall.md "Decision counts"). */
export function FirewallPage({ days }: { days: number }) {
  const [apiKey, remember] = useRememberedKey();
  return (
    <>
      <PageHeading title="Firewall" />
      <p>
        What the registry firewall decided for your account's installs (<code>GET /v1/firewall/stats</code>, which needs an API key with the{' '}
        <code>read</code> scope): downloads allowed and refused, metadata filtered, by day and reason, the most refused packages and the newest refusals.
      </p>
      <KeyForm
        name="firewall"
        apiKey={apiKey}
        submit="Show"
        onSubmit={(key) => {
          remember(key);
          return null;
        }}
      >
        <DaysField days={days} />
      </KeyForm>
      {apiKey === '' ? <Empty>Enter an API key to see its account's firewall decisions.</Empty> : <Results apiKey={apiKey} days={days} />}
    </>
  );
}
