import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import Fastify from 'fastify';
import { createNodeWebhookHandler, vigilWebhookPlugin, webhookFetchHandler, type WebhookReceiverOptions } from '../index.js';

export interface RunningReceiver {
  url: string;
  close(): Promise<void>;
}

async function listen(listener: RequestListener, path: string): Promise<RunningReceiver> {
  const server: Server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function startNodeReceiver(options: WebhookReceiverOptions): Promise<RunningReceiver> {
  return listen(createNodeWebhookHandler(options), '/');
}

export const FASTIFY_PATH = '/hooks/vigil';

/** A fastify app with its own JSON route beside the plugin, to show the plugin's parser stays encapsulated. */
export async function startFastifyReceiver(options: WebhookReceiverOptions): Promise<RunningReceiver> {
  const app = Fastify();
  app.post('/echo', async (request) => ({ parsed: request.body }));
  await app.register(vigilWebhookPlugin, { ...options, path: FASTIFY_PATH });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}${FASTIFY_PATH}`, close: () => app.close() };
}

/** The smallest Node-to-Fetch bridge: what Deno.serve, Bun.serve or a Worker do for the handler. */
export function fetchAdapter(handle: (request: Request) => Promise<Response>): RequestListener {
  return (req: IncomingMessage, res) => {
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string') headers.set(name, value);
      else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    }
    const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
      method: req.method ?? 'GET',
      headers,
      ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
    } as RequestInit);
    void handle(request).then(async (response) => {
      const out: Record<string, string> = {};
      response.headers.forEach((value, name) => (out[name] = value));
      res.writeHead(response.status, out);
      res.end(Buffer.from(await response.arrayBuffer()));
    });
  };
}

export async function startFetchReceiver(options: WebhookReceiverOptions): Promise<RunningReceiver> {
  const handle = webhookFetchHandler(options);
  return listen(fetchAdapter((request) => handle(request)), '/');
}
