/**
 * The timer the background loops share (round scheduler, repository worker, webhook worker): a pass
 * now, then one `intervalMs` after each pass ends — never two passes of one loop overlapping through
 * the timer, never a backlog of ticks after a slow pass — until stop().
 */
export interface PollLoop {
  /** Runs a pass now and keeps polling. Idempotent while running. */
  start(): void;
  /** No more timed passes; a pass in progress is the caller's to await. */
  stop(): void;
  /** Between start() and stop(). */
  readonly running: boolean;
}

export function pollEvery(intervalMs: number, pass: () => Promise<unknown>, onError: (error: unknown) => void): PollLoop {
  let running = false;
  let timer: NodeJS.Timeout | undefined;

  function runThenSchedule(): void {
    pass().catch(onError).finally(schedule);
  }

  function schedule(): void {
    if (!running || timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      runThenSchedule();
    }, intervalMs);
    // A background loop never keeps the process alive on its own.
    timer.unref();
  }

  return {
    start() {
      if (running) return;
      running = true;
      runThenSchedule();
    },
    stop() {
      running = false;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
    get running() {
      return running;
    },
  };
}
