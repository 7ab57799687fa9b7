import { expressionBuilder, sql, type Expression, type SqlBool } from 'kysely';
import type { Database } from '../../../platform/db/schema.js';

/**
 * Whose package-reference claims (rows of `artifact_packages`) an answer counts (docs/artifacts.md,
 * "Whose references count"): those of accounts the operator trusts, always, and the asking account's
 * own. Another account's claims never change an answer: anyone can upload any bytes under any
 * reference, so an untrusted claim speaks for its uploader only.
 */
export interface ReferenceView {
  /** The asking account, whose own claims count too; null counts trusted claims only. */
  readonly accountId: string | null;
}

export const TRUSTED_CLAIMS_ONLY: ReferenceView = { accountId: null };

/**
 * The view of an authenticated account. A trusted account's own claims are trusted ones, so it sees
 * exactly the trusted view (and shares its cached answers).
 */
export function referenceViewOf(principal: { accountId: string; trusted: boolean }): ReferenceView {
  return principal.trusted ? TRUSTED_CLAIMS_ONLY : { accountId: principal.accountId };
}

/** A stable name of a view, for keying cached answers. */
export function referenceViewKey(view: ReferenceView): string {
  return view.accountId ?? '*trusted';
}

/**
 * The condition on `artifact_packages` that keeps the claims counting for `view`, for the query's
 * own `where`: evaluated in the same statement (the trusted accounts are a subquery on the indexed
 * `accounts.trusted`), so a batch of references stays one query.
 */
export function countedClaims(view: ReferenceView): Expression<SqlBool> {
  const eb = expressionBuilder<Database, 'artifact_packages'>();
  const byTrusted = eb('artifact_packages.uploaded_by', 'in', eb.selectFrom('accounts').select('accounts.account_id').where('accounts.trusted', '=', 1));
  return view.accountId === null ? byTrusted : eb.or([eb('artifact_packages.uploaded_by', '=', view.accountId), byTrusted]);
}

/**
 * Whether the artifact whose id is in `artifactIdColumn` may be read in `view` (docs/artifacts.md,
 * "Who can read an artifact"): one registered otherwise than by an upload (benchmark, seeds, the
 * operator's loaders) by everyone; one an upload registered only where a claim on it counts (the
 * reader's own or a trusted account's, read at query time). Everything that answers with an
 * artifact, or with what is known about one, filters with this, so a private upload cannot be
 * read by guessing its id. A correlated condition: it costs one probe per row it is applied to.
 */
export function visibleArtifact(view: ReferenceView, artifactIdColumn: string): Expression<SqlBool> {
  const eb = expressionBuilder<Database, never>();
  return eb.exists(
    eb
      .selectFrom('artifacts as visible')
      .select(sql`1`.as('one'))
      .where(sql<SqlBool>`${sql.ref('visible.id')} = ${sql.ref(artifactIdColumn)}`)
      .where((inner) =>
        inner.or([
          inner('visible.uploaded_by', 'is', null),
          inner.exists(
            inner
              .selectFrom('artifact_packages')
              .select(sql`1`.as('one'))
              .whereRef('artifact_packages.artifact_id', '=', 'visible.id')
              .where(countedClaims(view)),
          ),
        ]),
      ),
  );
}
