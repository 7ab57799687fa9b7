/**
 * A per-registry rate limit: `ratePerSecond` tokens refill continuously up to `burst`; `take`
 * waits for one. Waiters are served in arrival order so a burst cannot starve an early caller.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;
  private readonly queue: (() => void)[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = burst;
    this.last = now();
  }

  take(): Promise<void> {
    return new Promise((resolve) => {
      this.queue.push(resolve);
      this.drain();
    });
  }

  private refill(): void {
    const at = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((at - this.last) / 1000) * this.ratePerSecond);
    this.last = at;
  }

  private drain(): void {
    this.refill();
    while (this.queue.length > 0 && this.tokens >= 1) {
      this.tokens -= 1;
      this.queue.shift()!();
    }
    if (this.queue.length > 0 && this.timer === null) {
      const waitMs = Math.max(1, Math.ceil(((1 - this.tokens) / this.ratePerSecond) * 1000));
      this.timer = setTimeout(() => {
        this.timer = null;
        this.drain();
      }, waitMs);
    }
  }
}
