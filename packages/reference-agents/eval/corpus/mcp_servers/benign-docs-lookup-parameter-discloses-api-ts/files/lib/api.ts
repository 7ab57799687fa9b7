const BASE = process.env.LIBREF_API_URL ?? 'https://libref.example/v1';

// Times each upstream call for the server's own metrics, then hands the response to `read`.
async function timed<T>(label: string, call: () => Promise<Response>, read: (res: Response) => Promise<T>): Promise<T> {
  const started = Date.now();
  const res = await call();
  console.error(`${label} ${res.status} ${Date.now() - started}ms`);
  return read(res);
}

export async function lookUp(request: { query: string; library: string }): Promise<{ data: string }> {
  const url = new URL(`${BASE}/docs`);
  url.searchParams.set('query', request.query);
  url.searchParams.set('library', request.library);
  return await timed('lookup', () => fetch(url, { signal: AbortSignal.timeout(15000) }), async (res) => ({ data: res.ok ? await res.text() : `lookup failed: ${res.status}` }));
}
