import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { packageRefChecksums, type PackageRef, type PackageRefChecksum } from '@vigil/core';

/** The algorithms an upload's `checksum` qualifier may name: those Vigil computes to check it (docs/artifacts.md). */
export const CHECKED_CHECKSUM_ALGORITHMS: readonly string[] = ['md5', 'sha1', 'sha256', 'sha384', 'sha512'];

/**
 * Why an upload's reference carries a checksum Vigil cannot check (an algorithm it does not
 * compute), or undefined. Decided from the reference alone, before the body is read.
 */
export function uncheckedChecksum(ref: PackageRef): string | undefined {
  const unknown = packageRefChecksums(ref).find((c) => !CHECKED_CHECKSUM_ALGORITHMS.includes(c.algorithm));
  if (unknown === undefined) return undefined;
  return `checksum algorithm ${unknown.algorithm} is not one Vigil checks (${CHECKED_CHECKSUM_ALGORITHMS.join(', ')})`;
}

export interface ChecksumMismatch {
  claimed: PackageRefChecksum;
  /** The bytes' own digest in that algorithm, lowercase hex. */
  actual: string;
}

/**
 * The first entry of the reference's `checksum` qualifier that the bytes do not match, or
 * undefined. A claimed checksum becomes part of the artifact's naming (its source id), so a false
 * one is refused rather than stored. sha256 is the upload's own content hash; any other algorithm
 * reads the staged file once, for all of them together.
 */
export async function mismatchedChecksum(ref: PackageRef, staged: { path: string; hash: string }): Promise<ChecksumMismatch | undefined> {
  const claims = packageRefChecksums(ref);
  if (claims.length === 0) return undefined;
  const digests = new Map<string, string>([['sha256', staged.hash.slice('sha256:'.length)]]);
  const others = [...new Set(claims.map((c) => c.algorithm))].filter((algorithm) => !digests.has(algorithm));
  if (others.length > 0) {
    const hashes = others.map((algorithm) => createHash(algorithm));
    for await (const chunk of createReadStream(staged.path)) for (const hash of hashes) hash.update(chunk as Buffer);
    others.forEach((algorithm, i) => digests.set(algorithm, hashes[i]!.digest('hex')));
  }
  for (const claimed of claims) {
    const actual = digests.get(claimed.algorithm)!;
    if (claimed.hex !== actual) return { claimed, actual };
  }
  return undefined;
}
