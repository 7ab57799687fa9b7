import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** The upstream did not answer usably: the firewall answers 502 (unreachable) or 504 (too slow). */
export class UpstreamError extends Error {
  constructor(
    readonly status: 502 | 504,
    message: string,
  ) {
    super(message);
  }
}

/**
 * One request to the upstream registry. Resolves with the answer once its headers arrive; rejects
 * with an UpstreamError when it cannot connect or gives no headers within `timeoutMs`. Once the
 * body flows, a silence of `timeoutMs` destroys it (the caller's pipe ends in an error, never a
 * hang), and `signal` (the client went away) aborts it at any point.
 */
export function upstreamRequest(
  url: URL,
  init: { method: string; headers: OutgoingHttpHeaders; timeoutMs: number; signal: AbortSignal; body?: NodeJS.ReadableStream },
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, { method: init.method, headers: init.headers, signal: init.signal });
    const timer = setTimeout(() => {
      req.destroy(new UpstreamError(504, `the upstream registry gave no answer within ${init.timeoutMs / 1000} s`));
    }, init.timeoutMs);
    req.once('response', (res) => {
      clearTimeout(timer);
      // A stalled body: destroyed after the same silence, so the client's download ends in an error.
      res.setTimeout(init.timeoutMs, () => res.destroy(new UpstreamError(504, 'the upstream registry stopped sending')));
      resolve(res);
    });
    req.once('error', (error) => {
      clearTimeout(timer);
      if (error instanceof UpstreamError) reject(error);
      else if (init.signal.aborted) reject(error);
      else reject(new UpstreamError(502, `the upstream registry is unreachable: ${(error as NodeJS.ErrnoException).code ?? error.message}`));
    });
    if (init.body) init.body.pipe(req);
    else req.end();
  });
}
