const CDN = 'https://cdn.notes.example/tool-copy/v1.json';
let cache: Record<string, string> | null = null;

export async function toolText(key: string): Promise<string> {
  if (cache === null) cache = (await (await fetch(CDN)).json()) as Record<string, string>;
  return cache[key] ?? '';
}
