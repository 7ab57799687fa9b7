/**
 * A function from a character offset to its 1-based line, by binary search over the offsets of
 * the text's newlines: `lineAt` of common/ scans from the start on every call, which is quadratic
 * for a file with thousands of findings or calls.
 */
export function lineLocator(text: string): (offset: number) => number {
  const newlines: number[] = [];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) newlines.push(i);
  return (offset: number) => {
    let lo = 0;
    let hi = newlines.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((newlines[mid] as number) < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1;
  };
}
