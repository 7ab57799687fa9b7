/**
 * Identities for unverified components that stay distinct when a hand-made SBOM repeats a `bom-ref`
 * (invalid CycloneDX, but it happens): the first component keeps its ref, the n-th one with the same
 * ref is `<ref>#<n>`. VEX bom-refs must be unique, and SARIF results with one fingerprint are merged
 * into one alert by code scanning.
 */
export class UniqueRefs {
  private readonly seen = new Map<string, number>();

  next(ref: string): string {
    const count = (this.seen.get(ref) ?? 0) + 1;
    this.seen.set(ref, count);
    return count === 1 ? ref : `${ref}#${count}`;
  }
}
