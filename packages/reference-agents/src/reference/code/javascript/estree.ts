/** ESTree nodes read generically: the analysis touches a few fields of many node types. */
export interface N {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

export const node = (value: unknown): N | undefined => (typeof value === 'object' && value !== null && typeof (value as N).type === 'string' ? (value as N) : undefined);
export const nodes = (value: unknown): N[] => (Array.isArray(value) ? value.map(node).filter((n): n is N => n !== undefined) : []);

/** The nodes directly under a node, field by field in key order (for walks that stop early or cap their depth). */
export function childNodes(n: N): N[] {
  const out: N[] = [];
  for (const key of Object.keys(n)) {
    const val = n[key];
    if (Array.isArray(val)) out.push(...nodes(val));
    else {
      const child = node(val);
      if (child !== undefined) out.push(child);
    }
  }
  return out;
}
