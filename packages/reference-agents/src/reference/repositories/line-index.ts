/**
 * 1-based line numbers of character offsets in one text, for scanners that report many matches:
 * line starts are found once and each lookup is a binary search.
 */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  lineOf(offset: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  }
}

/** Shows the first four characters of a secret and hides the rest, so evidence never carries it. */
export function maskSecret(secret: string): string {
  const shown = secret.slice(0, 4);
  return `${shown}${'*'.repeat(Math.min(12, Math.max(4, secret.length - 4)))} (${secret.length} chars)`;
}
