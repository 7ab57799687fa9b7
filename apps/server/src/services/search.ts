import type { SearchKind, SearchResult } from '@vigil/core';
import { sql, type Kysely } from 'kysely';
import { fullTextMatches, normalizeSearchWords, type FullTextIndex } from '../db/dialect.js';
import type { Database } from '../db/schema.js';
import type { Facets } from '../repositories/search-index.js';

/** The search index of migration 0008 (docs/search.md). */
export const SEARCH_INDEX: FullTextIndex = { table: 'search_documents', columns: ['primary_terms', 'other_terms'] };

/** Facets that are finding text: shown in snippets only to plans that may read findings. */
const FINDING_TEXT_FACETS = new Set(['finding', 'file']);
/**
 * What a plan without findings may not match on either: otherwise a query that combines a record's
 * hash with a guessed word would tell, by a hit or a miss, what its withheld findings say.
 */
const FINDING_FACETS = new Set(['finding', 'file', 'category', 'type']);

/** Whether every query word is a prefix of a word of the facets a plan without findings may see. */
function matchesWithoutFindings(facets: Facets, words: readonly string[]): boolean {
  const visible = new Set<string>();
  for (const [field, values] of Object.entries(facets)) {
    if (FINDING_FACETS.has(field)) continue;
    for (const value of values) for (const word of normalizeSearchWords(value)) visible.add(word);
  }
  // The kind is a word of every document (documentColumns).
  const all = [...visible, 'artifact', 'attestation'];
  return words.every((w) => all.some((v) => v.startsWith(w)));
}
const SNIPPET_MAX = 240;

/** Where the next page starts: strictly after this (score, document id) in best-first order. */
export interface SearchKey {
  score: number;
  docId: number;
}

export interface SearchPage {
  results: SearchResult[];
  next: SearchKey | null;
}

/** The matched fields, `field: value` joined with ` · `. */
function snippetOf(facets: Facets, words: readonly string[], showFindings: boolean): string {
  const parts: string[] = [];
  for (const [field, values] of Object.entries(facets)) {
    if (!showFindings && FINDING_TEXT_FACETS.has(field)) continue;
    for (const value of values) {
      const valueWords = normalizeSearchWords(value);
      if (words.some((w) => valueWords.some((v) => v.startsWith(w)))) parts.push(`${field}: ${value}`);
    }
  }
  const text = parts.join(' · ');
  return text.length <= SNIPPET_MAX ? text : `${text.slice(0, SNIPPET_MAX - 1)}…`;
}

/**
 * Artifacts and attestations matching every word of `q` (each word as a prefix), best first, with
 * a keyset on (score, document id). Ranking is the database's (bm25 on SQLite, ts_rank on
 * PostgreSQL); a match in an identifier outranks one in a verdict, a track or a finding.
 */
export async function search(
  db: Kysely<Database>,
  input: { q: string; kind?: SearchKind | undefined; after: SearchKey | null; size: number; showFindings: boolean },
): Promise<SearchPage> {
  const words = [...new Set(normalizeSearchWords(input.q))].slice(0, 16);
  if (words.length === 0) return { results: [], next: null };
  const matches = fullTextMatches(db, SEARCH_INDEX, words);
  const after = input.after;
  const rows = await db
    .selectFrom(sql<{ doc_id: number; score: number }>`(${matches})`.as('m'))
    .innerJoin('search_documents as d', 'd.id', 'm.doc_id')
    // The identifier shown for an attestation: its canonical hash.
    .leftJoin('attestations as a', (j) => j.onRef('a.id', '=', 'd.ref_id').on('d.kind', '=', 'attestation'))
    .select(['d.id', 'd.kind', 'd.ref_id', 'd.title', 'd.facets', 'm.score', 'a.canonical_hash'])
    .$if(input.kind !== undefined, (q) => q.where('d.kind', '=', input.kind!))
    .$if(after !== null, (q) =>
      q.where((eb) => eb.or([eb('m.score', '<', after!.score), eb.and([eb('m.score', '=', after!.score), eb('d.id', '>', after!.docId)])])),
    )
    .orderBy('m.score', 'desc')
    .orderBy('d.id', 'asc')
    .limit(input.size + 1)
    .execute();
  const page = rows.slice(0, input.size);
  const last = page.at(-1);
  // Filtered after the page is cut, so the keyset stays the database's: a page can come out short
  // and still have a next one, which the pagination headers allow (docs/search.md).
  const shown = input.showFindings ? page : page.filter((row) => matchesWithoutFindings(JSON.parse(row.facets) as Facets, words));
  return {
    results: shown.map((row) => {
      const attestation = row.kind === 'attestation';
      const id = attestation ? (row.canonical_hash ?? '') : String(row.ref_id);
      return {
        kind: row.kind,
        id,
        title: row.title,
        snippet: snippetOf(JSON.parse(row.facets) as Facets, words, input.showFindings),
        score: Number(row.score),
        href: attestation ? `/v1/attestations/${id}` : `/v1/attestations?artifact=${id}`,
      };
    }),
    next: rows.length > input.size && last !== undefined ? { score: Number(last.score), docId: Number(last.id) } : null,
  };
}
