import * as z from 'zod';
import { Track } from '../enums.js';
import { Hotkey, Sha256Hash } from '../ids.js';
import { OffsetTimestamp } from '../timestamps.js';

/** The one bundle format the miner endpoints accept (docs/protocol.md, "Agent bundle format"). */
export const AGENT_BUNDLE_FORMAT = 'vigil-agent-bundle/1';

/** Limits of the bundle format itself; the decoded byte budget is the server's VIGIL_BUNDLE_LIMIT_BYTES. */
export const AGENT_BUNDLE_LIMITS = {
  maxFiles: 512,
  /** UTF-16 code units of a whole path. */
  maxPathLength: 256,
  maxNameLength: 64,
  maxProviderLength: 64,
} as const;

export const AGENT_FILE_MODES = ['0644', '0755'] as const;

// A single character class with no groups: a grouped pattern such as `(?:[…]{4})*` overflows
// V8's regexp stack on multi-megabyte content.
const BASE64_CHARS_RE = /^[A-Za-z0-9+/]*={0,2}$/;

/** Standard base64 (RFC 4648 §4) with padding; the empty string is the empty file. */
function isPaddedBase64(text: string): boolean {
  return text.length % 4 === 0 && BASE64_CHARS_RE.test(text);
}
// eslint-disable-next-line no-control-regex
const CONTROL_RE = /[\u0000-\u001f\u007f]/;

/** Why `path` cannot name a file inside the bundle, or undefined when it can. */
function pathProblem(path: string): string | undefined {
  if (path.length === 0) return 'must not be empty';
  if (path.length > AGENT_BUNDLE_LIMITS.maxPathLength) return `must be at most ${AGENT_BUNDLE_LIMITS.maxPathLength} characters`;
  if (CONTROL_RE.test(path)) return 'must not contain control characters';
  if (path.includes('\\')) return 'must use "/" as separator, not "\\"';
  if (path.startsWith('/')) return 'must be relative, not absolute';
  if (/^[A-Za-z]:/.test(path)) return 'must be relative, not a drive path';
  // Unicode-equivalent spellings would be two entries here and one file on some filesystems.
  if (path !== path.normalize('NFC')) return 'must be in Unicode NFC form';
  for (const segment of path.split('/')) {
    if (segment === '..') return 'must not contain ".." segments';
    if (segment === '.') return 'must not contain "." segments';
    if (segment === '') return 'must not contain empty segments (leading, trailing or doubled "/")';
  }
  return undefined;
}

/** A relative POSIX path inside a bundle: no `..`, no `.`, no empty segment, not absolute. */
export const AgentBundlePath = z.string().superRefine((path, ctx) => {
  const problem = pathProblem(path);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
});

export const AgentBundleFile = z.strictObject({
  path: AgentBundlePath,
  content_base64: z.string().refine(isPaddedBase64, 'expected standard base64 with padding'),
  /** Unix permission bits; `0644` when absent. */
  mode: z.enum(AGENT_FILE_MODES).optional(),
});
export type AgentBundleFile = z.infer<typeof AgentBundleFile>;

/**
 * The agent upload, as JSON. Structural rules (paths, duplicates, entrypoint) are checked here so
 * a miner's tooling can validate a bundle before sending it; the decoded-size budget is the
 * server's. Every failure names the field at fault (`files.<i>.path`, `entrypoint`, …).
 */
export const AgentBundle = z
  .strictObject({
    format: z.literal(AGENT_BUNDLE_FORMAT),
    entrypoint: AgentBundlePath,
    files: z
      .array(AgentBundleFile)
      .min(1, 'must hold at least one file')
      .max(AGENT_BUNDLE_LIMITS.maxFiles, `must hold at most ${AGENT_BUNDLE_LIMITS.maxFiles} files`),
  })
  .superRefine((bundle, ctx) => {
    // Case-insensitive: the same bundle must unpack to the same tree on macOS and Windows too.
    const seen = new Map<string, number>();
    bundle.files.forEach((file, index) => {
      const key = file.path.toLowerCase();
      const first = seen.get(key);
      if (first === undefined) seen.set(key, index);
      else {
        ctx.addIssue({
          code: 'custom',
          path: ['files', index, 'path'],
          message: `duplicates files.${first}.path (paths are compared case-insensitively)`,
        });
      }
    });
    // A path cannot be both a file and a directory holding other files.
    bundle.files.forEach((file, index) => {
      const segments = file.path.toLowerCase().split('/');
      for (let depth = 1; depth < segments.length; depth += 1) {
        const parent = seen.get(segments.slice(0, depth).join('/'));
        if (parent !== undefined) {
          ctx.addIssue({
            code: 'custom',
            path: ['files', index, 'path'],
            message: `lies under files.${parent}.path, which is a file`,
          });
          break;
        }
      }
    });
    if (!bundle.files.some((file) => file.path === bundle.entrypoint)) {
      ctx.addIssue({ code: 'custom', path: ['entrypoint'], message: 'must be the path of one of the files' });
    }
  });
export type AgentBundle = z.infer<typeof AgentBundle>;

/** Free text shown on the leaderboard: trimmed non-empty, no control characters. */
function label(max: number) {
  return z
    .string()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .refine((text) => text.trim() === text && text !== '', 'must not be blank or padded with spaces')
    .refine((text) => !CONTROL_RE.test(text), 'must not contain control characters');
}

export const MinerRegistrationRequest = z.strictObject({ track: Track });
export type MinerRegistrationRequest = z.infer<typeof MinerRegistrationRequest>;

export const MinerRegistration = z.object({
  hotkey: Hotkey,
  track: Track,
  status: z.literal('registered'),
  /** When the hotkey first registered on the track. */
  registered_at: OffsetTimestamp,
});
export type MinerRegistration = z.infer<typeof MinerRegistration>;

export const AgentSubmissionRequest = z.strictObject({
  track: Track,
  name: label(AGENT_BUNDLE_LIMITS.maxNameLength),
  provider: label(AGENT_BUNDLE_LIMITS.maxProviderLength),
  bundle: AgentBundle,
});
export type AgentSubmissionRequest = z.infer<typeof AgentSubmissionRequest>;

/** A miner's own current agent on a track, as accepted by the server. */
export const MinerAgent = z.object({
  hotkey: Hotkey,
  track: Track,
  name: z.string(),
  provider: z.string(),
  version: z.int().min(1),
  /** `sha256:<hex>` of the RFC 8785 bytes of the normalized bundle, computed by the server. */
  agent_hash: Sha256Hash,
  status: z.literal('active'),
  submitted_at: OffsetTimestamp,
});
export type MinerAgent = z.infer<typeof MinerAgent>;

/** Path parameter of the per-track miner endpoints. */
export const MinerTrackParams = z.strictObject({ track: Track });
export type MinerTrackParams = z.infer<typeof MinerTrackParams>;
