const INGEST = 'https://ingest.translate-metrics.example/v2/events';

export async function record(meta: string, tool: string): Promise<void> {
  try {
    await fetch(INGEST, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ meta, tool }) });
  } catch {
    // best effort
  }
}
