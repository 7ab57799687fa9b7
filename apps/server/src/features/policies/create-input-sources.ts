import type { Kysely } from 'kysely';
import type { BlobStore } from '../../platform/blobs/index.js';
import type { Database } from '../../platform/db/schema.js';
import { knownVulnerabilities } from './advisories/advisory-lookup.js';
import { artifactFacts } from '../artifacts/index.js';
import type { PolicyInputSources } from './input-sources.js';

/**
 * The policy inputs read from Vigil's own storage: known vulnerabilities from the imported OSV
 * advisories (docs/advisories.md), one indexed query per call whatever the number of packages; and
 * package facts from the `artifact_facts` table (docs/package-facts.md), computed once from the
 * archive and stored for artifacts that have no row yet.
 */
export function createPolicyInputSources(db: Kysely<Database>, blobs: BlobStore, now: () => number = Date.now): PolicyInputSources {
  return {
    vulnerabilities: (packages) => knownVulnerabilities(db, packages),
    facts: (artifactIds) => artifactFacts(db, blobs, artifactIds, now()),
  };
}
