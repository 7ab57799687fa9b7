import { sql, type Kysely, type Migration } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Canonical purls write the colon unencoded (purl spec; docs/package-references.md): until now
 * they were stored as packageurl-js writes them, `?checksum=sha256%3A…`. The purls stored as
 * references are rewritten so that lookups by the new canonical form find them. `%3A` in a stored
 * canonical purl is always an encoded colon (a literal `%` is stored `%25`), so a plain replace is
 * exact, and the same on both dialects. Recorded answers (policy evaluations' bodies, events) and
 * artifact names (bundle hashes, which attestations sign) keep the text they were given. The
 * search entries hold the references as written: they are rebuilt once when a reference changed.
 */
async function up(db: AnyDb): Promise<void> {
  const colon = sql<string>`replace(purl, '%3A', ':')`;
  const encoded = await db.selectFrom('artifact_packages').select('purl').where('purl', '<>', colon).limit(1).executeTakeFirst();
  for (const table of ['artifact_packages', 'package_requests']) {
    await db.updateTable(table).set({ purl: colon }).where('purl', '<>', colon).execute();
  }
  if (encoded !== undefined) {
    await db.updateTable('search_index_state').set({ state: 'needed', updated_at: Date.now() }).where('name', '=', 'search').execute();
  }
}

/**
 * Nothing to undo that can be undone exactly: which colons were encoded depended on the part of
 * the purl they were in. An earlier version reading these rows finds a reference only when it is
 * looked up as stored.
 */
async function down(): Promise<void> {
  // Intentionally empty.
}

export const purlColonsMigration: Migration = { up, down };
