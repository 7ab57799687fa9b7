import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * A stand-in for PyPI (no PyPI server installs here): it serves the JSON API and the simple API
 * (PEP 691 JSON, PEP 503 HTML) from files on disk, laid out as
 * `<root>/<normalised name>/project.json` (name, requires_dist, yanked releases, sha256 per file as
 * recorded at upload) and
 * `<root>/<normalised name>/<version>/<filename>`, with ETags and 304s as PyPI sends them.
 */
export interface PypiStandIn {
  readonly url: string;
  /** Serve only the simple API, as some mirrors do. */
  jsonApi: boolean;
  close(): Promise<void>;
}

export interface PypiProjectFixture {
  name: string;
  requires_dist?: string[];
  /** Versions yanked, with the reason ('' for none). */
  yanked?: Record<string, string>;
  /** version → filename → bytes */
  files: Record<string, Record<string, Buffer>>;
}

const normalise = (name: string) => name.toLowerCase().replace(/[-_.]+/g, '-');

export async function writePypiProject(root: string, project: PypiProjectFixture): Promise<void> {
  const dir = join(root, normalise(project.name));
  await mkdir(dir, { recursive: true });
  // Digests are recorded at upload, as PyPI does: bytes replaced later no longer match them.
  const digests: Record<string, string> = {};
  for (const [version, files] of Object.entries(project.files)) {
    await mkdir(join(dir, version), { recursive: true });
    for (const [filename, bytes] of Object.entries(files)) {
      await writeFile(join(dir, version, filename), bytes);
      digests[filename] = createHash('sha256').update(bytes).digest('hex');
    }
  }
  await writeFile(join(dir, 'project.json'), JSON.stringify({ name: project.name, requires_dist: project.requires_dist ?? null, yanked: project.yanked ?? {}, digests }));
}

export async function startPypiStandIn(root: string): Promise<PypiStandIn> {
  const state = { jsonApi: true };
  const fileEntry = async (base: string, project: string, version: string, filename: string, yanked: Record<string, string>) => {
    const bytes = await readFile(join(root, project, version, filename));
    const { digests } = await meta(project);
    return {
      filename,
      url: `${base}/packages/${project}/${version}/${filename}`,
      sha256: digests[filename] ?? createHash('sha256').update(bytes).digest('hex'),
      size: bytes.length,
      kind: filename.endsWith('.whl') ? 'bdist_wheel' : 'sdist',
      yanked: Object.hasOwn(yanked, version),
      yanked_reason: yanked[version] || null,
    };
  };
  const versionsOf = async (project: string) => (await readdir(join(root, project), { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  const meta = async (project: string) => JSON.parse(await readFile(join(root, project, 'project.json'), 'utf8')) as { name: string; requires_dist: string[] | null; yanked: Record<string, string>; digests: Record<string, string> };
  const exists = async (path: string) => stat(path).then(() => true, () => false);

  const send = (req: IncomingMessage, res: ServerResponse, type: string, body: Buffer | string) => {
    const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
    const etag = `"${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}"`;
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, { etag });
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': type, 'content-length': String(bytes.length), etag });
    res.end(bytes);
  };

  const server = createServer((req, res) => {
    const base = `http://${req.headers.host}`;
    const path = new URL(req.url ?? '/', base).pathname;
    const notFound = () => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"message":"Not Found"}');
    };
    void (async () => {
      let m: RegExpExecArray | null;
      if ((m = /^\/pypi\/([^/]+)\/(?:([^/]+)\/)?json$/.exec(path))) {
        const project = normalise(decodeURIComponent(m[1]!));
        if (!state.jsonApi || !(await exists(join(root, project, 'project.json')))) return notFound();
        const info = await meta(project);
        const versions = await versionsOf(project);
        const version = m[2] === undefined ? versions.at(-1)! : decodeURIComponent(m[2]);
        if (!versions.includes(version)) return notFound();
        const urls = await Promise.all((await readdir(join(root, project, version))).sort().map((f) => fileEntry(base, project, version, f, info.yanked)));
        const releases: Record<string, unknown[]> = {};
        if (m[2] === undefined) for (const v of versions) releases[v] = await Promise.all((await readdir(join(root, project, v))).sort().map((f) => fileEntry(base, project, v, f, info.yanked)));
        const body = {
          info: { name: info.name, version, requires_dist: info.requires_dist, yanked: Object.hasOwn(info.yanked, version), yanked_reason: info.yanked[version] || null },
          urls: urls.map(({ kind, sha256, ...rest }) => ({ ...rest, packagetype: kind, digests: { sha256 } })),
          ...(m[2] === undefined ? { releases } : {}),
        };
        return send(req, res, 'application/json', JSON.stringify(body));
      }
      if ((m = /^\/simple\/([^/]+)\/$/.exec(path))) {
        const project = normalise(decodeURIComponent(m[1]!));
        if (!(await exists(join(root, project, 'project.json')))) return notFound();
        const info = await meta(project);
        const files = [];
        for (const v of await versionsOf(project)) for (const f of (await readdir(join(root, project, v))).sort()) files.push(await fileEntry(base, project, v, f, info.yanked));
        if ((req.headers.accept ?? '').includes('application/vnd.pypi.simple.v1+json')) {
          const body = { meta: { 'api-version': '1.1' }, name: project, versions: await versionsOf(project), files: files.map((f) => ({ filename: f.filename, url: f.url, hashes: { sha256: f.sha256 }, size: f.size, yanked: f.yanked ? f.yanked_reason || true : false })) };
          return send(req, res, 'application/vnd.pypi.simple.v1+json', JSON.stringify(body));
        }
        const links = files.map((f) => `<a href="${f.url}#sha256=${f.sha256}"${f.yanked ? ` data-yanked="${f.yanked_reason ?? ''}"` : ''}>${f.filename}</a><br/>`).join('\n');
        return send(req, res, 'text/html', `<!DOCTYPE html><html><body>\n${links}\n</body></html>`);
      }
      if ((m = /^\/packages\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(path))) {
        const file = join(root, m[1]!, decodeURIComponent(m[2]!), decodeURIComponent(m[3]!));
        if (!(await exists(file))) return notFound();
        return send(req, res, 'application/octet-stream', await readFile(file));
      }
      notFound();
    })().catch(() => {
      res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    get jsonApi() {
      return state.jsonApi;
    },
    set jsonApi(value: boolean) {
      state.jsonApi = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
