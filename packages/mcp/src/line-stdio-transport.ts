import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** How much of the start and the end of an oversized line is kept to find its `id` and `method`. */
const KEEP_BYTES = 4096;

const ID = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
const STR = String.raw`"(?:[^"\\]|\\.)*"`;
/** `id` among the first top-level members (`{"jsonrpc":"2.0","id":6,…`). */
const HEAD_ID_RE = new RegExp(String.raw`^\s*\{\s*(?:"(?:jsonrpc|method)"\s*:\s*${STR}\s*,\s*)*"id"\s*:\s*${ID}`);
/** `id` among the last top-level members (`…},"jsonrpc":"2.0","id":6}`, as the MCP SDK's client writes). */
const TAIL_ID_RE = new RegExp(String.raw`[,{]\s*"id"\s*:\s*${ID}\s*(?:,\s*"(?:jsonrpc|method)"\s*:\s*${STR}\s*)*\}\s*$`);
const HEAD_METHOD_RE = new RegExp(String.raw`^\s*\{\s*(?:"(?:jsonrpc|id)"\s*:\s*(?:-?\d+|${STR})\s*,\s*)*"method"\s*:\s*"([^"\\]*)"`);

type Id = string | number;

interface Oversized {
  bytes: number;
  head: string;
  tail: Buffer;
}

/**
 * MCP over stdio (one JSON-RPC message a line), as the SDK's StdioServerTransport, except that
 * no input ends it and every request gets an answer (docs/mcp.md, "Transports"):
 * - a line over `maxBytes` is skipped up to its newline and answered for its id (found at the
 *   start or the end of the line): a tool error for `tools/call`, else error -32600. The SDK's own
 *   transport closes the connection instead, which ends the server;
 * - a line that is not JSON is answered with -32700 (id null); JSON that is not a JSON-RPC message
 *   with -32600, for its id when it has a usable one. A malformed response (no `method`, with
 *   `result` or `error`) is not answered, per JSON-RPC, only reported to `onerror`.
 */
export class LineStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private chunks: Buffer[] = [];
  private size = 0;
  private oversized: Oversized | null = null;
  private started = false;

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
    private readonly maxBytes: number,
  ) {}

  async start(): Promise<void> {
    if (this.started) throw new Error('LineStdioTransport already started');
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
  }

  private readonly onStreamError = (error: Error) => this.onerror?.(error);

  private readonly onData = (chunk: Buffer | string) => {
    const data = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let start = 0;
    for (;;) {
      const newline = data.indexOf(10, start);
      this.take(newline === -1 ? data.subarray(start) : data.subarray(start, newline));
      if (newline === -1) return;
      this.endLine();
      start = newline + 1;
    }
  };

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.oversized !== null) {
      this.oversized.bytes += piece.length;
      const tail = Buffer.concat([this.oversized.tail, piece]);
      this.oversized.tail = tail.subarray(Math.max(0, tail.length - KEEP_BYTES));
      return;
    }
    if (this.size + piece.length > this.maxBytes) {
      // Over the limit: from here on only the byte count and the last bytes are kept.
      const all = Buffer.concat([...this.chunks, piece]);
      this.oversized = { bytes: all.length, head: all.subarray(0, KEEP_BYTES).toString('utf8'), tail: all.subarray(Math.max(0, all.length - KEEP_BYTES)) };
      this.chunks = [];
      this.size = 0;
      return;
    }
    this.chunks.push(piece);
    this.size += piece.length;
  }

  private endLine(): void {
    if (this.oversized !== null) {
      const oversized = this.oversized;
      this.oversized = null;
      this.answerOversized(oversized);
      return;
    }
    const line = Buffer.concat(this.chunks, this.size).toString('utf8').replace(/\r$/, '');
    this.chunks = [];
    this.size = 0;
    if (line.trim() === '') return;
    this.handleLine(line);
  }

  private handleLine(line: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (err) {
      this.report(`a line that is not JSON (${(err as Error).message})`);
      this.reply({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the line is not JSON' } });
      return;
    }
    const message = JSONRPCMessageSchema.safeParse(parsed);
    if (message.success) {
      this.onmessage?.(message.data);
      return;
    }
    const object = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
    if (object !== null && !('method' in object) && ('result' in object || 'error' in object)) {
      this.report('a malformed JSON-RPC response (not answered)');
      return;
    }
    const id = object !== null && (typeof object.id === 'string' || (typeof object.id === 'number' && Number.isFinite(object.id))) ? (object.id as Id) : null;
    this.report(`an invalid JSON-RPC message${id === null ? '' : ` (id ${JSON.stringify(id)})`}`);
    this.reply({
      jsonrpc: '2.0',
      id,
      error: { code: -32600, message: 'Invalid Request: expected a JSON-RPC 2.0 object with jsonrpc "2.0", a string method, params an object when given, and an id that is a string or a number' },
    });
  }

  private answerOversized({ bytes, head, tail }: Oversized): void {
    const end = tail.toString('utf8').replace(/\r$/, '');
    const idText = HEAD_ID_RE.exec(head)?.[1] ?? TAIL_ID_RE.exec(end)?.[1];
    let id: Id | null = null;
    try {
      if (idText !== undefined) id = JSON.parse(idText) as Id;
    } catch {
      id = null;
    }
    const method = HEAD_METHOD_RE.exec(head)?.[1] ?? null;
    const why = `this message is ${bytes} bytes; the Vigil MCP server reads messages of at most ${this.maxBytes} bytes (UTF-8, one line) over stdio, and skipped it. Send less: a lockfile's non-ASCII characters take 2 to 4 bytes each, and characters JSON escapes up to 6; or split the packages over several calls`;
    this.report(`a message of ${bytes} bytes, over the limit of ${this.maxBytes}${id === null ? '' : ` (id ${JSON.stringify(id)})`}`);
    // A request without a findable id cannot be answered for its id: JSON-RPC's id null.
    if (method === 'tools/call' && id !== null) this.reply({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: `${why[0]!.toUpperCase()}${why.slice(1)}.` }], isError: true } });
    else this.reply({ jsonrpc: '2.0', id, error: { code: -32600, message: `Invalid Request: ${why}` } });
  }

  private report(what: string): void {
    this.onerror?.(new Error(`stdio: skipped ${what}`));
  }

  /** Answers written directly: the SDK's types have no error answer with id null. */
  private reply(message: Record<string, unknown>): void {
    this.stdout.write(`${JSON.stringify(message)}\n`);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const json = `${JSON.stringify(message)}\n`;
    if (!this.stdout.write(json)) await new Promise<void>((resolve) => this.stdout.once('drain', () => resolve()));
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.chunks = [];
    this.size = 0;
    this.oversized = null;
    this.onclose?.();
  }
}
