import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The "Endpoint → command" table of docs/cli.md and the "Endpoint → method" table of docs/client.md,
 * read the way the coverage tests need them: one row per route, `METHOD /path` with `{param}`s, and
 * what serves it. Shared from the repository root so the server, SDK and CLI tests read the same rows.
 */
export interface EndpointRow {
  /** `GET /v1/rounds/{round_id}/scores`. */
  endpoint: string;
  /** The second cell as written. */
  cell: string;
  /** The first code span of the cell, or null when the cell starts with "none" (the reason follows). */
  code: string | null;
}

export const docPath = (name: string): string => fileURLToPath(new URL(`../docs/${name}`, import.meta.url));

export function readDoc(name: string): string {
  return readFileSync(docPath(name), 'utf8');
}

/** The rows of the table under `## <heading>` in `docs/<doc>`. */
export function endpointTable(doc: string, heading: string): EndpointRow[] {
  const text = readDoc(doc);
  const start = text.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`docs/${doc} has no "## ${heading}" section`);
  const end = text.indexOf('\n## ', start + 1);
  const section = text.slice(start, end < 0 ? undefined : end);
  const rows: EndpointRow[] = [];
  for (const line of section.split('\n')) {
    const match = /^\| `((?:GET|POST|PUT|PATCH|DELETE) \/[^`]*)` \| (.*) \|$/.exec(line);
    if (!match) continue;
    const cell = match[2]!.replace(/\\\|/g, '|');
    rows.push({ endpoint: match[1]!, cell, code: cell.startsWith('none') ? null : (/^`([^`]+)`/.exec(cell)?.[1] ?? null) });
  }
  return rows;
}

/** Every `code span` of a document (the endpoint lists of docs/api.md are made of them). */
export function codeSpans(doc: string): Set<string> {
  return new Set([...readDoc(doc).matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!));
}
