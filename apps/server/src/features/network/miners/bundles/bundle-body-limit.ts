import { AGENT_BUNDLE_LIMITS } from '@vigil/core';

/**
 * JSON around each file: its keys, quotes, mode, padding, and a path of up to maxPathLength
 * characters written as `\uXXXX` escapes (6 bytes each) in the worst case.
 */
const PER_FILE_OVERHEAD_BYTES = 128 + 6 * AGENT_BUNDLE_LIMITS.maxPathLength;
/** track, name, provider, format and entrypoint, with room to spare. */
const ENVELOPE_OVERHEAD_BYTES = 64 * 1024;

/**
 * The request body limit of `POST /v1/miners/agents` for a decoded-bundle budget of
 * `bundleLimitBytes`: base64 grows content by 4/3, plus the JSON around the files. A body whose
 * declared length is above it is refused with 413 before it is read; one below it whose decoded
 * content is still over the budget gets 422 naming `body.bundle.files`.
 */
export function bundleBodyLimit(bundleLimitBytes: number): number {
  if (!Number.isSafeInteger(bundleLimitBytes) || bundleLimitBytes < 1) {
    throw new RangeError(`bundleLimitBytes: expected an integer ≥ 1, got ${String(bundleLimitBytes)}`);
  }
  return 4 * Math.ceil(bundleLimitBytes / 3) + AGENT_BUNDLE_LIMITS.maxFiles * PER_FILE_OVERHEAD_BYTES + ENVELOPE_OVERHEAD_BYTES;
}
