import { afterThisTurn, checkReceiverOptions, receiveDelivery, type BodyRead, type WebhookReceiverOptions } from './webhook-receiver.js';

/** How a runtime keeps work alive after the response: Cloudflare Workers' `ctx`, Vercel's `waitUntil`. */
export interface WaitUntilContext {
  waitUntil(promise: Promise<unknown>): void;
}

function hasWaitUntil(context: unknown): context is WaitUntilContext {
  return typeof context === 'object' && context !== null && typeof (context as { waitUntil?: unknown }).waitUntil === 'function';
}

export interface FetchWebhookOptions extends WebhookReceiverOptions {
  /**
   * Called with the after-response handler run when no per-request `waitUntil` is given (for
   * example `waitUntil` of `@vercel/functions`). Without either, the run is a plain promise, which
   * Deno, Bun and Node keep alive by themselves.
   */
  waitUntil?: (promise: Promise<unknown>) => void;
}

async function readFetchBody(request: Request, maxBodyBytes: number): Promise<BodyRead> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBodyBytes) return { ok: false, tooLarge: true };
  if (request.body === null) return { ok: true, body: new Uint8Array(0) };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > maxBodyBytes) {
      await reader.cancel();
      return { ok: false, tooLarge: true };
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.length;
  }
  return { ok: true, body };
}

/**
 * A Fetch-API handler, `(request, ctx?) => Promise<Response>`, for Deno, Bun, Cloudflare Workers,
 * Next.js route handlers and anything else that speaks `Request`/`Response`. Same answers as
 * `createNodeWebhookHandler`. The second argument is whatever the runtime passes (Workers' `ctx`,
 * Deno's `info`, Next.js's `{ params }`): when it has a `waitUntil` method, the after-response
 * handler run is handed to it. Typed `unknown` so every runtime's context fits.
 */
export function webhookFetchHandler(options: FetchWebhookOptions): (request: Request, context?: unknown) => Promise<Response> {
  const { maxBodyBytes } = checkReceiverOptions(options);
  return async (request, context) => {
    const answer = await receiveDelivery(options, {
      method: request.method,
      headers: request.headers,
      readBody: () => readFetchBody(request, maxBodyBytes),
    });
    if (answer.afterResponse) {
      const run = afterThisTurn(answer.afterResponse);
      if (hasWaitUntil(context)) context.waitUntil(run);
      else options.waitUntil?.(run);
    }
    return new Response(answer.body, { status: answer.status, headers: answer.headers });
  };
}
