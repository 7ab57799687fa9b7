import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { xxhashAsU8a } from '@polkadot/util-crypto';

/**
 * A local stand-in for a subtensor node: a JSON-RPC server (HTTP POST and WebSocket on one port)
 * answering the four methods the metagraph source uses from an in-memory storage map. Keys and
 * SCALE values are built here by hand, independently of the code under test.
 */

// twox128("SubtensorModule"), as published in Bittensor tooling that reads Finney storage directly.
export const SUBTENSOR_MODULE_PREFIX = '658faa385070e074c85bf6b568cf0555';

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

function u16le(value: number): string {
  return hex(Uint8Array.of(value & 0xff, value >> 8));
}

/** Storage key built the way the chain lays it out, independently of subtensorStorageKey. */
export function standInKey(item: string, ...u16Keys: number[]): string {
  return `0x${SUBTENSOR_MODULE_PREFIX}${hex(xxhashAsU8a(item, 128))}${u16Keys.map(u16le).join('')}`;
}

/** SCALE compact length prefix (single-byte, two-byte and four-byte modes). */
function compact(length: number): string {
  if (length < 1 << 6) return hex(Uint8Array.of(length << 2));
  if (length < 1 << 14) return u16le((length << 2) | 1);
  const v = (length << 2) | 2;
  return hex(Uint8Array.of(v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, (v >>> 24) & 0xff));
}

export interface StandInNeuron {
  /** The 32-byte public key (AccountId32) of the hotkey. */
  publicKey: Uint8Array;
  validatorPermit: boolean;
}

/** The storage entries a subnet with these neurons (uid = index) has on chain. */
export function subnetStorage(netuid: number, neurons: StandInNeuron[]): Map<string, string> {
  const storage = new Map<string, string>();
  storage.set(standInKey('SubnetworkN', netuid), `0x${u16le(neurons.length)}`);
  storage.set(
    standInKey('ValidatorPermit', netuid),
    `0x${compact(neurons.length)}${neurons.map((n) => (n.validatorPermit ? '01' : '00')).join('')}`,
  );
  neurons.forEach((neuron, uid) => storage.set(standInKey('Keys', netuid, uid), `0x${hex(neuron.publicKey)}`));
  return storage;
}

export interface StandInSubtensor {
  /** http://127.0.0.1:<port> */
  readonly httpUrl: string;
  /** ws://127.0.0.1:<port> */
  readonly wsUrl: string;
  readonly storage: Map<string, string>;
  blockNumber: number;
  readonly blockHash: string;
  /** Methods received, in order. */
  readonly calls: string[];
  /** When set, every request is answered with this JSON-RPC error. */
  failWith: { code: number; message: string } | null;
  /** When false, state_queryStorageAt answers "Method not found" like a restricted gateway. */
  supportsQueryStorageAt: boolean;
  close(): Promise<void>;
}

type RpcRequest = { id?: unknown; method?: unknown; params?: unknown };

export async function startStandInSubtensor(
  options: { storage?: Map<string, string>; blockNumber?: number } = {},
): Promise<StandInSubtensor> {
  const sockets = new Set<Duplex>();
  const state: StandInSubtensor = {
    httpUrl: '',
    wsUrl: '',
    storage: options.storage ?? new Map(),
    blockNumber: options.blockNumber ?? 4_200_000,
    blockHash: `0x${'ab'.repeat(32)}`,
    calls: [],
    failWith: null,
    supportsQueryStorageAt: true,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const answer = (request: RpcRequest): object => {
    const id = typeof request.id === 'number' ? request.id : null;
    const method = String(request.method);
    state.calls.push(method);
    const params = Array.isArray(request.params) ? request.params : [];
    const error = (code: number, message: string) => ({ jsonrpc: '2.0', id, error: { code, message } });
    const result = (value: unknown) => ({ jsonrpc: '2.0', id, result: value });
    if (state.failWith) return error(state.failWith.code, state.failWith.message);
    const atPinnedBlock = (at: unknown) => at === state.blockHash;
    switch (method) {
      case 'chain_getHeader':
        return result({
          parentHash: `0x${'00'.repeat(32)}`,
          number: `0x${state.blockNumber.toString(16)}`,
          stateRoot: `0x${'11'.repeat(32)}`,
          extrinsicsRoot: `0x${'22'.repeat(32)}`,
          digest: { logs: [] },
        });
      case 'chain_getBlockHash':
        return result(params[0] === state.blockNumber ? state.blockHash : null);
      case 'state_getStorage':
        if (!atPinnedBlock(params[1])) return error(4003, 'Client error: UnknownBlock: state not pinned');
        return result(state.storage.get(String(params[0])) ?? null);
      case 'state_queryStorageAt': {
        if (!state.supportsQueryStorageAt) return error(-32601, 'Method not found');
        const keys = params[0];
        if (!Array.isArray(keys) || !atPinnedBlock(params[1])) return error(-32602, 'Invalid params');
        return result([
          { block: state.blockHash, changes: keys.map((key) => [key, state.storage.get(String(key)) ?? null]) },
        ]);
      }
      default:
        return error(-32601, 'Method not found');
    }
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body: string;
      try {
        body = JSON.stringify(answer(JSON.parse(Buffer.concat(chunks).toString('utf8')) as RpcRequest));
      } catch {
        body = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    acceptWebSocket(req, socket, (text) => JSON.stringify(answer(JSON.parse(text) as RpcRequest)));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  Object.assign(state, { httpUrl: `http://127.0.0.1:${port}`, wsUrl: `ws://127.0.0.1:${port}` });
  return state;
}

const WS_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/** Minimal RFC 6455 server side: unfragmented text frames, ping and close; enough for a JSON-RPC client. */
function acceptWebSocket(req: IncomingMessage, socket: Duplex, onText: (text: string) => string): void {
  const key = req.headers['sec-websocket-key'];
  if (typeof key !== 'string') {
    socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    return;
  }
  const accept = createHash('sha1').update(key + WS_GUID).digest('base64');
  socket.write(
    `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
  );
  let buffered = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    for (;;) {
      const frame = readFrame(buffered);
      if (!frame) return;
      buffered = buffered.subarray(frame.size);
      if (frame.opcode === 0x1) socket.write(encodeFrame(0x1, Buffer.from(onText(frame.payload.toString('utf8')))));
      else if (frame.opcode === 0x9) socket.write(encodeFrame(0xa, frame.payload));
      else if (frame.opcode === 0x8) {
        socket.end(encodeFrame(0x8, frame.payload.subarray(0, 2)));
        return;
      }
    }
  });
  socket.on('error', () => socket.destroy());
}

function readFrame(data: Buffer): { opcode: number; payload: Buffer; size: number } | null {
  if (data.length < 2) return null;
  const opcode = data[0]! & 0x0f;
  const masked = (data[1]! & 0x80) !== 0;
  let length = data[1]! & 0x7f;
  let offset = 2;
  if (length === 126) {
    if (data.length < 4) return null;
    length = data.readUInt16BE(2);
    offset = 4;
  } else if (length === 127) {
    if (data.length < 10) return null;
    length = Number(data.readBigUInt64BE(2));
    offset = 10;
  }
  const maskLength = masked ? 4 : 0;
  if (data.length < offset + maskLength + length) return null;
  const mask = data.subarray(offset, offset + maskLength);
  const payload = Buffer.from(data.subarray(offset + maskLength, offset + maskLength + length));
  if (masked) for (let i = 0; i < payload.length; i += 1) payload[i] = payload[i]! ^ mask[i % 4]!;
  return { opcode, payload, size: offset + maskLength + length };
}

function encodeFrame(opcode: number, payload: Buffer): Buffer {
  let header: Buffer;
  if (payload.length < 126) header = Buffer.from([0x80 | opcode, payload.length]);
  else if (payload.length < 65536) {
    header = Buffer.alloc(4);
    header[0] = 0x80 | opcode;
    header[1] = 126;
    header.writeUInt16BE(payload.length, 2);
  } else {
    header = Buffer.alloc(10);
    header[0] = 0x80 | opcode;
    header[1] = 127;
    header.writeBigUInt64BE(BigInt(payload.length), 2);
  }
  return Buffer.concat([header, payload]);
}
