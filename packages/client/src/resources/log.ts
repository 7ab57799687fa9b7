import type { CallOptions, Transport } from '../transport.js';

const utf8 = new TextDecoder();

/** A C2SP tile path as the server reads it (`tile/<L>/<N>[.p/<W>]`, `tile/entries/<N>[.p/<W>]`); the server checks the spelling. */
const TILE_PATH = /^tile\/[0-9a-z./]+$/;

function treeSize(value: unknown, argument: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new TypeError(`${argument}: expected a non-negative integer`);
  return value;
}

/** One base64 hash line of a consistency proof, as bytes (atob: in Node ≥ 16, browsers and edge runtimes). */
function hashOfLine(line: string): Uint8Array {
  const bytes = Uint8Array.from(atob(line), (c) => c.charCodeAt(0));
  if (bytes.length !== 32) throw new TypeError(`consistency proof: a line is not a 32-byte hash: ${JSON.stringify(line.slice(0, 60))}`);
  return bytes;
}

/**
 * The transparency log (docs/log.md, "The log of this server"): public, no API key needed. Answers
 * come as the server sent them; verify them with `@vigil/tlog` against a pinned log key, never
 * against what this server says its key is.
 */
export class Log {
  constructor(private readonly transport: Transport) {}

  /** `GET /v1/log/checkpoint`: the current checkpoint, a C2SP signed note, with the witness cosignatures kept for its size. */
  async checkpoint(options?: CallOptions): Promise<string> {
    return utf8.decode(await this.transport.bytes({ method: 'GET', path: '/v1/log/checkpoint', repeatable: 'safe' }, options));
  }

  /** `GET /v1/log/tile/…`: a tile or entry bundle's bytes; `path` is the C2SP tile path (`tilePath(tile)` of @vigil/tlog). */
  tile(path: string, options?: CallOptions): Promise<Uint8Array> {
    if (typeof path !== 'string' || !TILE_PATH.test(path)) throw new TypeError('path: expected a C2SP tile path such as tile/0/000 or tile/entries/001.p/7');
    return this.transport.bytes({ method: 'GET', path: `/v1/log/${path}`, repeatable: 'safe' }, options);
  }

  /** `GET /v1/log/consistency`: the RFC 6962 consistency proof from tree size `from` to `to` (1 ≤ from ≤ to ≤ size), as 32-byte hashes. */
  async consistency(from: number, to: number, options?: CallOptions): Promise<Uint8Array[]> {
    const query = { from: treeSize(from, 'from'), to: treeSize(to, 'to') };
    const text = utf8.decode(await this.transport.bytes({ method: 'GET', path: '/v1/log/consistency', query, repeatable: 'safe' }, options));
    if (text === '') return [];
    if (!text.endsWith('\n')) throw new TypeError('consistency proof: the answer does not end in a newline');
    return text.slice(0, -1).split('\n').map(hashOfLine);
  }

  /**
   * `POST /v1/log/cosignature`: a witness hands in a checkpoint note with its cosignature line
   * added; answered with the checkpoint and every cosignature the server keeps for it.
   */
  async cosign(note: string, options?: CallOptions): Promise<string> {
    if (typeof note !== 'string' || note === '') throw new TypeError('note: expected the cosigned checkpoint note');
    const body = { blob: new Blob([note]), contentType: 'text/plain; charset=utf-8' };
    return utf8.decode(await this.transport.bytes({ method: 'POST', path: '/v1/log/cosignature', body, repeatable: 'safe' }, options));
  }
}
