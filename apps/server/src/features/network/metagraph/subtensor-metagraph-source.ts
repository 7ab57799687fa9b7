import { NETUID, formatOffsetTimestamp, type MetagraphNeuron, type MetagraphSnapshot } from '@vigil/core';
import { MetagraphError, errorSummary } from './metagraph-error.js';
import { validateMetagraphSnapshot, type MetagraphSource } from './metagraph-source.js';
import { StorageDecodeError } from './storage-decode-error.js';
import {
  JSON_RPC_METHOD_NOT_FOUND,
  isSubtensorUrl,
  jsonRpcErrorCode,
  openRpcTransport,
  type RpcTransport,
} from './rpc-transport.js';

export interface SubtensorMetagraphSourceOptions {
  /** VIGIL_SUBTENSOR_URL: http(s):// or ws(s):// JSON-RPC endpoint of a subtensor node. */
  url: string;
  netuid?: number;
  /** Bound on connecting and on each JSON-RPC request. */
  requestTimeoutMs?: number;
  /** Storage keys per `state_queryStorageAt` request. */
  batchSize?: number;
  now?: () => number;
}

export const SUBTENSOR_DEFAULTS = {
  requestTimeoutMs: 15_000,
  batchSize: 256,
  /** Parallel `state_getStorage` requests when the node lacks `state_queryStorageAt`. */
  fallbackConcurrency: 16,
} as const;

type StorageValue = string | null;

/**
 * A live read of one netuid's metagraph from the subtensor chain: the uid count, each uid's
 * hotkey and the validator-permit vector, all pinned to one block so they agree with each other.
 */
export class SubtensorMetagraphSource implements MetagraphSource {
  readonly url: string;
  readonly netuid: number;
  readonly description: string;
  readonly #timeoutMs: number;
  readonly #batchSize: number;
  readonly #now: () => number;
  #queryStorageAtUnsupported = false;

  constructor(options: SubtensorMetagraphSourceOptions) {
    const { url } = options;
    if (typeof url !== 'string' || !isSubtensorUrl(url)) {
      throw new TypeError(`options.url: expected an http(s):// or ws(s):// subtensor endpoint, got ${JSON.stringify(url)}`);
    }
    const netuid = options.netuid ?? NETUID;
    if (!Number.isInteger(netuid) || netuid < 0 || netuid > 0xffff) {
      throw new RangeError(`options.netuid: expected an integer 0-65535, got ${String(netuid)}`);
    }
    const timeoutMs = options.requestTimeoutMs ?? SUBTENSOR_DEFAULTS.requestTimeoutMs;
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
      throw new RangeError(`options.requestTimeoutMs: expected a positive number, got ${String(timeoutMs)}`);
    }
    const batchSize = options.batchSize ?? SUBTENSOR_DEFAULTS.batchSize;
    if (!Number.isInteger(batchSize) || batchSize < 1) {
      throw new RangeError(`options.batchSize: expected a positive integer, got ${String(batchSize)}`);
    }
    this.url = url;
    this.netuid = netuid;
    this.description = `subtensor ${url}`;
    this.#timeoutMs = timeoutMs;
    this.#batchSize = batchSize;
    this.#now = options.now ?? Date.now;
  }

  async snapshot(): Promise<MetagraphSnapshot> {
    let rpc: RpcTransport;
    try {
      rpc = await openRpcTransport(this.url, this.#timeoutMs);
    } catch (error) {
      throw this.#unreachable(error);
    }
    try {
      return await this.#read(rpc);
    } catch (error) {
      if (error instanceof MetagraphError) throw error;
      if (error instanceof StorageDecodeError) throw this.#invalid(error.message, error);
      throw this.#unreachable(error);
    } finally {
      await rpc.close();
    }
  }

  async #read(rpc: RpcTransport): Promise<MetagraphSnapshot> {
    // polkadot-js's SCALE codecs, loaded with the first chain read (see openRpcTransport).
    const { BITTENSOR_SS58_PREFIX, decodeAccountId, decodeBoolVec, decodeU16, subtensorStorageKey } = await import('./subtensor-storage.js');
    const header = await rpc.send<unknown>('chain_getHeader', []);
    const block = parseBlockNumber((header as { number?: unknown } | null)?.number);
    if (block === null) throw this.#invalid(`chain_getHeader returned no hex block number: ${JSON.stringify(header)}`);
    const hash = await rpc.send<unknown>('chain_getBlockHash', [block]);
    if (typeof hash !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(hash)) {
      throw this.#invalid(`chain_getBlockHash(${block}) returned ${JSON.stringify(hash)}, not a block hash`);
    }

    const countKey = subtensorStorageKey('SubnetworkN', this.netuid);
    const permitKey = subtensorStorageKey('ValidatorPermit', this.netuid);
    const [countValue, permitValue] = await this.#storage(rpc, [countKey, permitKey], hash);
    if (countValue === null || countValue === undefined) {
      throw this.#invalid(
        `SubnetworkN(${this.netuid}) is absent at block #${block}: netuid ${this.netuid} does not exist on this chain, or the endpoint is not a subtensor node`,
      );
    }
    const count = decodeU16(countValue, `SubnetworkN(${this.netuid})`);
    // ValidatorPermit is a ValueQuery with an empty default, so absence means no permits yet.
    const permits = permitValue ? decodeBoolVec(permitValue, `ValidatorPermit(${this.netuid})`) : [];

    const uids = Array.from({ length: count }, (_, uid) => uid);
    const hotkeyValues = await this.#storage(
      rpc,
      uids.map((uid) => subtensorStorageKey('Keys', this.netuid, uid)),
      hash,
    );
    const neurons: MetagraphNeuron[] = uids.map((uid) => {
      const value = hotkeyValues[uid];
      // Uids are dense in 0..SubnetworkN, so a hole means the reads did not come from one consistent state.
      if (value === null || value === undefined) {
        throw this.#invalid(`Keys(${this.netuid}, ${uid}) is absent at block #${block} although SubnetworkN is ${count}`);
      }
      return {
        uid,
        hotkey: decodeAccountId(value, `Keys(${this.netuid}, ${uid})`, BITTENSOR_SS58_PREFIX),
        validator_permit: permits[uid] === true,
      };
    });

    return validateMetagraphSnapshot(
      { netuid: this.netuid, block, taken_at: formatOffsetTimestamp(this.#now()), neurons },
      this.description,
      this.netuid,
    );
  }

  /** Values of `keys` at block `at`, in order, batched so a 256-uid subnet costs one round trip. */
  async #storage(rpc: RpcTransport, keys: string[], at: string): Promise<StorageValue[]> {
    const values: StorageValue[] = [];
    for (let start = 0; start < keys.length; start += this.#batchSize) {
      const batch = keys.slice(start, start + this.#batchSize);
      values.push(...(await this.#storageBatch(rpc, batch, at)));
    }
    return values;
  }

  async #storageBatch(rpc: RpcTransport, keys: string[], at: string): Promise<StorageValue[]> {
    if (!this.#queryStorageAtUnsupported) {
      try {
        const result = await rpc.send<unknown>('state_queryStorageAt', [keys, at]);
        return this.#changesToValues(result, keys);
      } catch (error) {
        if (jsonRpcErrorCode(error) !== JSON_RPC_METHOD_NOT_FOUND) throw error;
        // Some RPC gateways expose only the basic state methods; remember and use those.
        this.#queryStorageAtUnsupported = true;
      }
    }
    const values: StorageValue[] = new Array<StorageValue>(keys.length).fill(null);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < keys.length) {
        const index = next;
        next += 1;
        const value = await rpc.send<unknown>('state_getStorage', [keys[index], at]);
        values[index] = this.#storageValue(value, 'state_getStorage');
      }
    };
    const workers = Math.min(SUBTENSOR_DEFAULTS.fallbackConcurrency, keys.length);
    await Promise.all(Array.from({ length: workers }, worker));
    return values;
  }

  #changesToValues(result: unknown, keys: string[]): StorageValue[] {
    if (!Array.isArray(result)) {
      throw this.#invalid(`state_queryStorageAt returned ${typeof result}, expected a list of change sets`);
    }
    const byKey = new Map<string, StorageValue>();
    for (const changeSet of result) {
      const changes = (changeSet as { changes?: unknown } | null)?.changes;
      if (!Array.isArray(changes)) throw this.#invalid('state_queryStorageAt returned a change set without changes');
      for (const change of changes) {
        if (!Array.isArray(change) || typeof change[0] !== 'string') {
          throw this.#invalid('state_queryStorageAt returned a change that is not a [key, value] pair');
        }
        byKey.set(change[0].toLowerCase(), this.#storageValue(change[1], 'state_queryStorageAt'));
      }
    }
    return keys.map((key) => byKey.get(key.toLowerCase()) ?? null);
  }

  #storageValue(value: unknown, method: string): StorageValue {
    if (value === null || value === undefined) return null;
    if (typeof value !== 'string') throw this.#invalid(`${method} returned a ${typeof value} value, expected 0x-hex`);
    return value;
  }

  #invalid(problem: string, cause?: unknown): MetagraphError {
    return new MetagraphError('chain_data_invalid', this.url, `subtensor ${this.url}: ${problem}`, { cause });
  }

  #unreachable(error: unknown): MetagraphError {
    return new MetagraphError(
      'chain_unreachable',
      this.url,
      `subtensor ${this.url}: read failed: ${errorSummary(error)}`,
      { cause: error },
    );
  }
}

function parseBlockNumber(value: unknown): number | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{1,13}$/.test(value)) return null;
  const block = Number.parseInt(value.slice(2), 16);
  return Number.isSafeInteger(block) ? block : null;
}
