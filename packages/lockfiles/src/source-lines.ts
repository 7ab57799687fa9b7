/**
 * Turns character offsets into 1-based line numbers. Built once per file, on demand: the readers
 * only need lines for skipped entries and errors, and a binary search keeps each lookup logarithmic.
 */
export class SourceLines {
  private starts: number[] | null = null;

  constructor(private readonly text: string) {}

  lineOf(offset: number): number {
    const starts = this.lineStarts();
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((starts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  }

  private lineStarts(): number[] {
    if (this.starts) return this.starts;
    const starts = [0];
    for (let i = this.text.indexOf('\n'); i !== -1; i = this.text.indexOf('\n', i + 1)) starts.push(i + 1);
    this.starts = starts;
    return starts;
  }
}
