import { z } from 'zod';

/**
 * An OSV record (https://ossf.github.io/osv-schema/) as the importer reads it: the fields matching
 * and display need, checked; every other field is allowed and ignored. A record that fails this is
 * reported by file name and not imported (docs/advisories.md, "Import").
 */

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** An RFC 3339 timestamp, read as epoch milliseconds. */
const Timestamp = z
  .string()
  .regex(RFC3339, 'expected an RFC 3339 timestamp such as 2021-05-06T16:05:51Z')
  .transform((text, ctx) => {
    const ms = Date.parse(text);
    if (Number.isNaN(ms)) {
      ctx.addIssue({ code: 'custom', message: 'not a real date' });
      return z.NEVER;
    }
    return ms;
  });

const Version = z.string().min(1).max(256);

/** Exactly one of the four event kinds per event object. */
const OsvEvent = z.union([
  z.strictObject({ introduced: Version }),
  z.strictObject({ fixed: Version }),
  z.strictObject({ last_affected: Version }),
  z.strictObject({ limit: Version }),
]);
export type OsvEvent = z.infer<typeof OsvEvent>;

const OsvRange = z.object({
  type: z.string().min(1),
  repo: z.string().optional(),
  events: z.array(OsvEvent).min(1),
});
export type OsvRange = z.infer<typeof OsvRange>;

const OsvSeverity = z.object({ type: z.string(), score: z.string() });
export type OsvSeverity = z.infer<typeof OsvSeverity>;

const OsvAffected = z.object({
  package: z.object({ ecosystem: z.string().min(1), name: z.string().min(1).max(512), purl: z.string().optional() }),
  severity: z.array(OsvSeverity).optional(),
  ranges: z.array(OsvRange).optional(),
  versions: z.array(Version).optional(),
});
export type OsvAffected = z.infer<typeof OsvAffected>;

export const OsvRecord = z.object({
  schema_version: z.string().optional(),
  id: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, 'expected an OSV id such as GHSA-35jh-r3h4-6jhm or PYSEC-2021-108'),
  modified: Timestamp,
  published: Timestamp.optional(),
  withdrawn: Timestamp.optional(),
  aliases: z.array(z.string()).optional(),
  summary: z.string().optional(),
  details: z.string().optional(),
  severity: z.array(OsvSeverity).optional(),
  affected: z.array(OsvAffected).optional(),
  database_specific: z.record(z.string(), z.unknown()).optional(),
});
export type OsvRecord = z.infer<typeof OsvRecord>;
