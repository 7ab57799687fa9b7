/**
 * Reachability over a lockfile's package graph, for the formats that record edges but not dev-ness
 * (pnpm 9, bun, uv): a package is development-only when development roots reach it and production
 * roots do not. Each node and edge is visited at most once per walk, so a walk is linear.
 */
export class DependencyGraph<K> {
  private readonly edges = new Map<K, K[]>();

  addEdge(from: K, to: K): void {
    const list = this.edges.get(from);
    if (list) list.push(to);
    else this.edges.set(from, [to]);
  }

  reachable(roots: Iterable<K>): Set<K> {
    const seen = new Set<K>();
    const stack: K[] = [];
    for (const root of roots) {
      if (!seen.has(root)) {
        seen.add(root);
        stack.push(root);
      }
    }
    while (stack.length > 0) {
      for (const next of this.edges.get(stack.pop()!) ?? []) {
        if (!seen.has(next)) {
          seen.add(next);
          stack.push(next);
        }
      }
    }
    return seen;
  }
}

/** dev-ness from the two walks: null for a package neither walk reaches (the file does not say). */
export function devOf<K>(key: K, production: Set<K>, development: Set<K>): boolean | null {
  if (production.has(key)) return false;
  if (development.has(key)) return true;
  return null;
}
