import type { ProviderInterface } from '@polkadot/rpc-provider/types';

/** One JSON-RPC connection to a subtensor node, opened per metagraph read. */
export interface RpcTransport {
  send<T>(method: string, params: unknown[]): Promise<T>;
  close(): Promise<void>;
}

/** A JSON-RPC error object returned by the node (`code`, `message`), as opposed to a transport failure. */
export function jsonRpcErrorCode(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}

export const JSON_RPC_METHOD_NOT_FOUND = -32601;

function withTimeout<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export function isSubtensorUrl(url: string): boolean {
  return /^(https?|wss?):\/\/[^\s]+$/i.test(url);
}

/**
 * Opens an HTTP(S) or WebSocket JSON-RPC connection with the polkadot-js providers. Response
 * caching is off (each read must see the chain) and every request is bounded by `timeoutMs`.
 */
export async function openRpcTransport(url: string, timeoutMs: number): Promise<RpcTransport> {
  if (typeof url !== 'string' || !isSubtensorUrl(url)) {
    throw new TypeError(`url: expected an http(s):// or ws(s):// subtensor endpoint, got ${JSON.stringify(url)}`);
  }
  // Loaded on the first chain read, not with the server: polkadot-js is about 600 modules (seconds
  // of start-up on a busy two-core machine) that a server reading its metagraph from a file never uses.
  const { HttpProvider, WsProvider } = await import('@polkadot/rpc-provider');
  let provider: ProviderInterface;
  if (/^https?:/i.test(url)) {
    provider = new HttpProvider(url, {}, 0);
  } else {
    // autoConnect off: a failed read should fail now and let the cache decide, not retry forever.
    const ws = new WsProvider(url, false, {}, timeoutMs, 0);
    provider = ws;
    const unsubscribe: Array<() => void> = [];
    try {
      const failed = new Promise<never>((_, reject) => {
        unsubscribe.push(ws.on('error', (error: unknown) => reject(new Error(`cannot connect to ${url}: ${describe(error)}`))));
        unsubscribe.push(ws.on('disconnected', () => reject(new Error(`cannot connect to ${url}: connection closed`))));
      });
      await withTimeout(Promise.race([ws.connect().then(() => ws.isReady), failed]), timeoutMs, `connect to ${url}`);
    } catch (error) {
      await ws.disconnect().catch(() => undefined);
      throw error;
    } finally {
      for (const off of unsubscribe) off();
    }
  }
  return {
    send: <T>(method: string, params: unknown[]) =>
      withTimeout(provider.send<T>(method, params, false), timeoutMs, `${method} on ${url}`),
    close: () => provider.disconnect().catch(() => undefined),
  };
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : 'socket error';
}
