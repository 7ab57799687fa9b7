import { CallDeadlineError } from './faults.js';
import type { ToolCall } from './tool-result.js';

/**
 * Runs the body of one call (a tool call or a resource read) under its deadline: past it, the
 * call's signal aborts (the requests and a scan's agent still running stop) and the promise
 * rejects with a CallDeadlineError saying how far the body got (`call.progress`).
 */
export async function underDeadline<T>(signals: readonly AbortSignal[], deadlineMs: number, work: (call: ToolCall) => Promise<T>): Promise<T> {
  const deadline = new AbortController();
  let progress = 'no answer from the Vigil API yet';
  const call: ToolCall = {
    signal: AbortSignal.any([...signals, deadline.signal]),
    progress: (text) => (progress = text),
  };
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      deadline.abort();
      reject(new CallDeadlineError(deadlineMs, progress));
    }, deadlineMs);
  });
  try {
    return await Promise.race([work(call), expired]);
  } finally {
    clearTimeout(timer);
  }
}
