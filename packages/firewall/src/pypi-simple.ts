/** A PyPI project name as the simple API spells it (PEP 503): lowercase, runs of `-_.` as one `-`. */
export function normalizePypiName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

const SDIST_EXTENSIONS = ['.tar.gz', '.zip', '.tar.bz2', '.tar.xz', '.tgz', '.tar'];

/**
 * The version a distribution file carries in its name: a wheel's second field
 * (`name-1.0-py3-none-any.whl`), an sdist's part after the project's name (`name-1.0.tar.gz`,
 * whatever `-_.` spelling the name has). Null for anything else (eggs, names that do not start
 * with the project's): such a file is undecided.
 */
export function pypiFileVersion(project: string, filename: string): string | null {
  if (filename.endsWith('.whl')) {
    const parts = filename.slice(0, -'.whl'.length).split('-');
    return parts.length >= 5 && normalizePypiName(parts[0]!) === project ? parts[1]! : null;
  }
  const ext = SDIST_EXTENSIONS.find((e) => filename.endsWith(e));
  if (ext === undefined) return null;
  const stem = filename.slice(0, -ext.length);
  for (let i = stem.indexOf('-'); i > 0; i = stem.indexOf('-', i + 1)) {
    if (normalizePypiName(stem.slice(0, i)) === project) {
      const version = stem.slice(i + 1);
      return version === '' ? null : version;
    }
  }
  return null;
}

/** The reference Vigil judges one PyPI file by (docs/registries.md "Which PyPI file"). */
export function pypiReference(project: string, version: string, filename: string): string {
  return `pkg:pypi/${project}@${encodeURIComponent(version)}?file_name=${encodeURIComponent(filename)}`;
}

/** One file of a project's simple page, as PEP 691 JSON gives it (other fields kept as they are). */
export interface SimpleFile {
  filename: string;
  url: string;
  hashes?: Record<string, string>;
  [field: string]: unknown;
}

export interface SimplePage {
  name: string;
  files: SimpleFile[];
  /** Every other field of the JSON page (`meta`, `versions`, …), kept. */
  rest: Record<string, unknown>;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&#x27;': "'" };
const unescapeHtml = (s: string) => s.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (m) => ENTITIES[m]!);
const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Reads a PEP 691 JSON page, or a PEP 503 HTML page (its anchors: href, `#<hash>=…`, `data-*` attributes). */
export function readSimplePage(project: string, body: string, json: boolean, pageUrl: string): SimplePage {
  if (json) {
    const doc = JSON.parse(body) as Record<string, unknown>;
    if (!Array.isArray(doc.files)) throw new Error('no files array');
    const files = (doc.files as SimpleFile[]).filter((f) => f && typeof f.filename === 'string' && typeof f.url === 'string').map((f) => ({ ...f, url: new URL(f.url, pageUrl).href }));
    const { files: _files, ...rest } = doc;
    return { name: typeof doc.name === 'string' ? doc.name : project, files, rest };
  }
  const files: SimpleFile[] = [];
  for (const m of body.matchAll(/<a\s([^>]*)>([^<]*)<\/a>/gi)) {
    const attrs = new Map<string, string>();
    for (const a of m[1]!.matchAll(/([a-zA-Z-]+)\s*=\s*"([^"]*)"/g)) attrs.set(a[1]!.toLowerCase(), unescapeHtml(a[2]!));
    const href = attrs.get('href');
    if (href === undefined) continue;
    const url = new URL(href, pageUrl);
    const hashes: Record<string, string> = {};
    const fragment = /^#([a-z0-9]+)=([0-9a-f]+)$/i.exec(url.hash);
    if (fragment) hashes[fragment[1]!.toLowerCase()] = fragment[2]!.toLowerCase();
    url.hash = '';
    const file: SimpleFile = { filename: unescapeHtml(m[2]!.trim()), url: url.href, hashes };
    if (attrs.has('data-requires-python')) file['requires-python'] = attrs.get('data-requires-python');
    if (attrs.has('data-yanked')) file.yanked = attrs.get('data-yanked') || true;
    if (attrs.has('data-dist-info-metadata') || attrs.has('data-core-metadata')) file['core-metadata'] = false;
    files.push(file);
  }
  return { name: project, files, rest: { meta: { 'api-version': '1.0' } } };
}

/** The page as PEP 691 JSON. */
export function simpleJson(page: SimplePage): string {
  return JSON.stringify({ ...page.rest, name: page.name, files: page.files });
}

/** The page as PEP 503 HTML, each file's hash in the URL fragment pip checks. */
export function simpleHtml(page: SimplePage): string {
  const links = page.files.map((f) => {
    const hash = f.hashes?.sha256 ? `#sha256=${f.hashes.sha256}` : '';
    const python = typeof f['requires-python'] === 'string' ? ` data-requires-python="${escapeHtml(f['requires-python'])}"` : '';
    const yanked = f.yanked ? ` data-yanked="${escapeHtml(typeof f.yanked === 'string' ? f.yanked : '')}"` : '';
    return `<a href="${escapeHtml(f.url + hash)}"${python}${yanked}>${escapeHtml(f.filename)}</a><br/>`;
  });
  return `<!DOCTYPE html>\n<html><head><meta name="pypi:repository-version" content="1.0"><title>Links for ${escapeHtml(page.name)}</title></head><body>\n<h1>Links for ${escapeHtml(page.name)}</h1>\n${links.join('\n')}\n</body></html>\n`;
}
