import type { FastifyInstance } from 'fastify';

/**
 * Every route under /v1 of a server, as `METHOD /path` with `{param}`s. Read from fastify's own route
 * tree (`printRoutes`, each line's path the concatenation of its ancestors'), so a route added anywhere is seen without being listed by hand. HEAD is left
 * out: fastify adds it to every GET.
 */
export function servedRoutes(app: FastifyInstance): string[] {
  // With the common prefixes shown: without them, find-my-way prints a wildcard route (`/v1/log/tile/*`)
  // as a bare `*` at the root, its path lost.
  const tree = app.printRoutes({ commonPrefix: true });
  const paths: string[] = [];
  const routes: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^((?:[│ ] {3})*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    const path = depth === 0 ? match[2]! : `${paths[depth - 1]}${match[2]}`;
    paths[depth] = path;
    paths.length = depth + 1;
    if (!path.startsWith('/v1/') || match[3] === undefined) continue;
    for (const method of match[3].split(', ')) {
      if (method !== 'HEAD') routes.push(`${method} ${path.replace(/:(\w+)/g, '{$1}')}`);
    }
  }
  return routes.sort();
}
