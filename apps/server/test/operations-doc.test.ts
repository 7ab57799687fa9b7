import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { databaseRegistry } from '../src/platform/metrics/database-gauges.js';
import { metricsRegistry, startProcessMetrics } from '../src/platform/metrics/metrics.js';
import { METRICS_VARIABLES } from '../src/platform/metrics/index.js';

const docs = (path: string) => readFileSync(new URL(`../../../docs/${path}`, import.meta.url), 'utf8');

startProcessMetrics();
const registered = [...metricsRegistry.getMetricsAsArray(), ...databaseRegistry.getMetricsAsArray()];
const TYPES = new Map(registered.map((m) => [m.name, (m as unknown as { type: string }).type]));
const OWN = [...TYPES.keys()].filter((name) => name.startsWith('vigil_')).sort();

/** The series a query may name for a metric: a histogram's `_bucket`, `_sum` and `_count`. */
function exposedSeries(): Set<string> {
  const names = new Set<string>(['up']);
  for (const [name, type] of TYPES) {
    names.add(name);
    if (type === 'histogram' || type === 'summary') for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${name}${suffix}`);
  }
  return names;
}

/** Metric names in a PromQL expression: identifiers not followed by `(` that are not keywords, labels or functions' arguments of by/without. */
function metricNamesIn(expr: string): string[] {
  const withoutStrings = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/\{[^}]*\}/g, '{}').replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  const names: string[] = [];
  for (const match of withoutStrings.matchAll(/\b([a-zA-Z_:][a-zA-Z0-9_:]*)\b(?!\s*\()/g)) {
    const word = match[1]!;
    if (['and', 'or', 'unless', 'bool', 'offset', 'e', 'Inf', 'NaN'].includes(word)) continue;
    // Durations and numbers in range selectors were stripped of their brackets' content below.
    names.push(word);
  }
  return names;
}

function exprNames(expr: string): string[] {
  return metricNamesIn(expr.replace(/\[[^\]]*\]/g, '')).filter((name) => !/^\d/.test(name));
}

describe('docs/operations.md', () => {
  const text = docs('operations.md');

  it('lists every vigil_ metric the server registers, with its type and labels, and nothing else', () => {
    // The server's section: "Validator metrics" (the CLI's) is checked by packages/cli's own test.
    const section = text.slice(text.indexOf('\n## Metrics\n'), text.indexOf('\n## ', text.indexOf('\n## Metrics\n') + 1));
    const rows = [...section.matchAll(/^\| `(vigil_[a-z_]+)` \| ([a-z]+)(?: \(database\))? \| ([^|]+) \|/gm)].map((m) => ({
      name: m[1]!,
      type: m[2]!,
      labels: m[3]!.trim() === 'none' ? [] : [...m[3]!.matchAll(/`([a-z_]+)`/g)].map((l) => l[1]!).sort(),
    }));
    expect(rows.map((r) => r.name).sort()).toEqual(OWN);
    for (const row of rows) {
      const metric = registered.find((m) => m.name === row.name)!;
      expect({ name: row.name, type: row.type }).toEqual({ name: row.name, type: TYPES.get(row.name) });
      const labelNames = [...((metric as unknown as { labelNames: string[] }).labelNames ?? [])].sort();
      expect({ name: row.name, labels: row.labels }).toEqual({ name: row.name, labels: labelNames });
    }
  });

  it('names the process metrics the server exports', () => {
    for (const name of text.match(/`(?:process|nodejs)_[a-z0-9_]+`/g) ?? []) {
      expect(exposedSeries().has(name.slice(1, -1)), name).toBe(true);
    }
  });

  it('documents the metrics settings as the server reads them', () => {
    for (const variable of METRICS_VARIABLES) expect(text).toContain(`| \`${variable.name}\` |`);
    expect(docs('configuration.md')).toContain('[operations.md](operations.md)');
  });

  it('its sample queries name only metrics that exist', () => {
    for (const expr of text.match(/```promql\n([\s\S]*?)```/)![1]!.split('\n').filter((line) => line !== '' && !line.startsWith('#'))) {
      for (const name of exprNames(expr)) expect(exposedSeries().has(name), `${name} in ${expr}`).toBe(true);
    }
  });
});

describe('docs/prometheus/vigil-alerts.yml', () => {
  const rules = parse(docs('prometheus/vigil-alerts.yml')) as { groups: { name: string; rules: { alert: string; expr: string; for: string; labels: { severity: string }; annotations: { summary: string; description: string } }[] }[] };
  const all = rules.groups.flatMap((g) => g.rules);

  it('is a Prometheus rule file whose expressions name only metrics that exist', () => {
    expect(all.length).toBeGreaterThan(5);
    for (const rule of all) {
      expect(rule.alert).toMatch(/^Vigil[A-Za-z0-9]+$/);
      expect(rule.for).toMatch(/^\d+[smh]$/);
      expect(['page', 'ticket']).toContain(rule.labels.severity);
      expect(rule.annotations.summary).toBeTruthy();
      const names = exprNames(rule.expr);
      expect(names.length, rule.alert).toBeGreaterThan(0);
      for (const name of names) expect(exposedSeries().has(name), `${rule.alert}: ${name}`).toBe(true);
    }
  });

  it('covers backlog age, the 5xx rate, a stuck round, the replay store and the fetch queue, each listed in docs/operations.md', () => {
    const names = all.map((r) => r.alert);
    expect(names).toEqual(expect.arrayContaining(['VigilOutboxBacklogOld', 'VigilHigh5xxRate', 'VigilRoundStuck', 'VigilReplayStoreUnreachable', 'VigilRegistryFetchesBehind']));
    const text = docs('operations.md');
    const listed = [...text.matchAll(/^\| `(Vigil[A-Za-z0-9]+)` \|/gm)].map((m) => m[1]);
    expect(listed.sort()).toEqual([...names].sort());
  });
});

describe('docs/grafana/vigil.json', () => {
  const dashboard = JSON.parse(docs('grafana/vigil.json')) as {
    uid: string;
    title: string;
    __inputs: { name: string; type: string; pluginId: string }[];
    templating: { list: { name: string; query: { query: string } }[] };
    panels: { type: string; title: string; gridPos: object; datasource?: { uid: string }; targets?: { expr: string; refId: string }[] }[];
  };

  it('is an importable dashboard whose every query names only metrics that exist', () => {
    expect(dashboard.uid).toBe('vigil-overview');
    expect(dashboard.__inputs).toEqual([expect.objectContaining({ name: 'DS_PROMETHEUS', type: 'datasource', pluginId: 'prometheus' })]);
    const graphs = dashboard.panels.filter((p) => p.type !== 'row');
    expect(graphs.length).toBeGreaterThan(10);
    const exprs = [...graphs.flatMap((p) => p.targets ?? []).map((t) => t.expr), ...dashboard.templating.list.map((v) => v.query.query.replace(/^label_values\(([^,]+),.*$/, '$1'))];
    for (const panel of graphs) {
      expect(panel.datasource?.uid, panel.title).toBe('${DS_PROMETHEUS}');
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
    }
    const named = new Set<string>();
    for (const expr of exprs) {
      for (const name of exprNames(expr.replace(/\$__rate_interval|\$instance/g, ''))) {
        expect(exposedSeries().has(name), `${name} in ${expr}`).toBe(true);
        named.add(name.replace(/_(bucket|sum|count)$/, ''));
      }
    }
    // The dashboard shows every vigil_ metric.
    expect(OWN.filter((name) => !named.has(name))).toEqual([]);
  });
});
