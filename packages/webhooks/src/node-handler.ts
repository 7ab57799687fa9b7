import { afterThisTurn, checkReceiverOptions, receiveDelivery, reportError, type BodyRead, type WebhookReceiverOptions } from './webhook-receiver.js';

/**
 * The parts of Node's `http.IncomingMessage` the handler uses, written out so the package needs
 * no Node types. `body` is set by Express-style body parsers: raw bytes (`express.raw`) or text
 * are used as the body; anything else means a parser already consumed the bytes.
 */
export interface NodeWebhookRequest {
  method?: string | undefined;
  headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  body?: unknown;
  on(event: string, listener: (...args: never[]) => void): unknown;
  pause(): unknown;
}

/** The parts of Node's `http.ServerResponse` the handler uses. */
export interface NodeWebhookResponse {
  writeHead(statusCode: number, headers: Record<string, string>): unknown;
  end(chunk: string): unknown;
}

function readNodeBody(req: NodeWebhookRequest, maxBodyBytes: number): Promise<BodyRead> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBodyBytes) {
    // Not read at all; the 413 carries `Connection: close`, so Node drops the rest.
    req.pause();
    return Promise.resolve({ ok: false, tooLarge: true });
  }
  return new Promise<BodyRead>((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    let done = false;
    const encoder = new TextEncoder();
    req.on('data', (chunk: Uint8Array | string) => {
      if (done) return;
      const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
      size += bytes.length;
      if (size > maxBodyBytes) {
        done = true;
        req.pause();
        resolve({ ok: false, tooLarge: true });
        return;
      }
      chunks.push(bytes);
    });
    req.on('end', () => {
      if (done) return;
      done = true;
      const body = new Uint8Array(size);
      let offset = 0;
      for (const chunk of chunks) {
        body.set(chunk, offset);
        offset += chunk.length;
      }
      resolve({ ok: true, body });
    });
    req.on('error', (error: unknown) => {
      if (done) return;
      done = true;
      reject(error instanceof Error ? error : new Error(String(error)));
    });
  });
}

/** Set when a JSON (or other) body parser ran before the handler and the exact bytes are gone. */
class RawBodyUnavailableError extends Error {
  override name = 'RawBodyUnavailableError';
}

/**
 * A Node `http` request listener (also usable as an Express or Connect route handler) that reads
 * the raw body itself (up to `maxBodyBytes`), verifies it, answers 202 and hands the event to
 * `options.handler`. Refusals: 405 (not POST), 413 (too large), 401/400 (see
 * `WebhookVerificationError`), each with a short plain-text reason.
 */
export function createNodeWebhookHandler(options: WebhookReceiverOptions): (req: NodeWebhookRequest, res: NodeWebhookResponse) => void {
  const { maxBodyBytes } = checkReceiverOptions(options);
  return (req, res) => {
    const readBody = async (): Promise<BodyRead> => {
      const parsed = req.body;
      if (parsed instanceof Uint8Array || typeof parsed === 'string') {
        const size = typeof parsed === 'string' ? new TextEncoder().encode(parsed).length : parsed.length;
        return size > maxBodyBytes ? { ok: false, tooLarge: true } : { ok: true, body: parsed };
      }
      if (parsed !== undefined) {
        throw new RawBodyUnavailableError('req.body was already parsed: mount the webhook route before any JSON body parser, or give it express.raw()');
      }
      return readNodeBody(req, maxBodyBytes);
    };
    void receiveDelivery(options, { method: req.method, headers: req.headers, readBody })
      .then((answer) => {
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body);
        if (answer.afterResponse) void afterThisTurn(answer.afterResponse);
      })
      .catch((error: unknown) => reportError(options, error, undefined));
  };
}
