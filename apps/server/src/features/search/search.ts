import { MAX_SEARCH_CANDIDATES, type SearchKind, type SearchResult } from '@vigil/core';
import { sql, type Kysely } from 'kysely';
import { rankedTextMatches, searchWordMatches } from '../../platform/db/dialect.js';
import type { Database } from '../../platform/db/schema.js';
import { FINDING_FACETS, SEARCH_INDEX, searchWords, type Facets } from '../../platform/search-index.js';
import { artifactPublicId } from '../artifacts/index.js';
import { visibleArtifact, type ReferenceView } from '../artifacts/index.js';

/** At most this many distinct words of `q` are searched for. */
export const MAX_SEARCH_WORDS = 16;
const SNIPPET_MAX = 240;

/** Where the next page starts: strictly after this (score, entry id) in best-first order. */
export interface SearchKey {
  score: number;
  docId: number;
}

export interface SearchPage {
  results: SearchResult[];
  next: SearchKey | null;
}

/** The matched fields, `field: value` joined with ` · `; findings-derived fields only when the plan reads findings. */
function snippetOf(facets: Facets, words: readonly string[], showFindings: boolean): string {
  const parts: string[] = [];
  for (const [field, values] of Object.entries(facets)) {
    if (!showFindings && FINDING_FACETS.has(field)) continue;
    for (const value of values) {
      const valueWords = searchWords(value);
      if (words.some((w) => valueWords.some((v) => searchWordMatches(w, v)))) parts.push(`${field}: ${value}`);
    }
  }
  const text = parts.join(' · ');
  return text.length <= SNIPPET_MAX ? text : `${text.slice(0, SNIPPET_MAX - 1)}…`;
}

/**
 * Artifacts and attestations matching every word of `q` (each word of three or more characters as a
 * prefix, a shorter one whole), best first, with
 * a keyset on (score, entry id). The index hands over its MAX_SEARCH_CANDIDATES best matches
 * (docs/search.md), in the fields the plan may match (no findings-derived words for a plan without
 * findings); of those, the entries the reader may see are kept (an artifact's audience entry: the
 * reader's own, a trusted account's read at query time, or everyone's for an artifact the reader
 * may read), one per artifact or attestation, and the page is cut from them. Everything after the
 * index is bounded by the candidates, whatever the words.
 */
export async function search(
  db: Kysely<Database>,
  input: { q: string; kind?: SearchKind | undefined; after: SearchKey | null; size: number; showFindings: boolean; view: ReferenceView },
): Promise<SearchPage> {
  const words = [...new Set(searchWords(input.q))].slice(0, MAX_SEARCH_WORDS);
  if (words.length === 0) return { results: [], next: null };
  const candidates = rankedTextMatches(db, SEARCH_INDEX, words, { restricted: !input.showFindings, limit: MAX_SEARCH_CANDIDATES });
  const { view } = input;
  const rows = await db
    .selectFrom(sql<{ id: number; score: number }>`(${candidates})`.as('c'))
    .innerJoin('search_entries as e', 'e.id', 'c.id')
    .leftJoin('attestations as a', (j) => j.onRef('a.id', '=', 'e.ref_id').on('e.kind', '=', 'attestation'))
    .select(['e.id', 'e.kind', 'e.ref_id', 'e.artifact_id', 'e.title', 'e.facets', 'c.score', 'a.canonical_hash'])
    .$if(input.kind !== undefined, (q) => q.where('e.kind', '=', input.kind!))
    .where((eb) => {
      const trusted = eb.selectFrom('accounts').select('accounts.account_id').where('accounts.trusted', '=', 1);
      return eb.or([
        eb.and([eb('e.audience', '=', ''), visibleArtifact(view, 'e.artifact_id')]),
        ...(view.accountId === null ? [] : [eb('e.audience', '=', view.accountId)]),
        eb('e.audience', 'in', trusted),
      ]);
    })
    .execute();

  // One result per artifact or attestation: its best visible entry (several audiences may match).
  const best = new Map<string, (typeof rows)[number] & { score: number; id: number }>();
  for (const row of rows) {
    const entry = { ...row, score: Number(row.score), id: Number(row.id) };
    const key = `${row.kind}:${row.ref_id}`;
    const seen = best.get(key);
    if (seen === undefined || entry.score > seen.score || (entry.score === seen.score && entry.id < seen.id)) best.set(key, entry);
  }
  const after = input.after;
  const ordered = [...best.values()]
    .filter((r) => after === null || r.score < after.score || (r.score === after.score && r.id > after.docId))
    .sort((a, b) => b.score - a.score || a.id - b.id);
  const page = ordered.slice(0, input.size);
  const last = page.at(-1);
  return {
    results: page.map((row): SearchResult => {
      const snippet = snippetOf(JSON.parse(row.facets) as Facets, words, input.showFindings);
      if (row.kind === 'attestation') {
        const hash = row.canonical_hash ?? '';
        return { type: 'attestation', kind: 'attestation', id: hash, canonical_hash: hash, title: row.title, snippet, score: row.score, href: `/v1/attestations/${hash}` };
      }
      const id = artifactPublicId(Number(row.ref_id));
      return { type: 'artifact', kind: 'artifact', id, title: row.title, snippet, score: row.score, href: `/v1/artifacts/${id}` };
    }),
    next: ordered.length > input.size && last !== undefined ? { score: last.score, docId: last.id } : null,
  };
}
