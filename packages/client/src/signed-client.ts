import type { z } from 'zod';
import { keypairFromSeed } from './keypair.js';
import type { VigilKeypair } from './keypair.js';
import { HotkeySigner } from './request-signer.js';
import { Miners } from './resources/miners.js';
import { Validators } from './resources/validators.js';
import { abortableSleep } from './retry.js';
import { Agents, LeaderboardResource, Network, Rounds, Trends } from './resources/public-reads.js';
import { SIGNER, Transport } from './transport.js';
import type { CallOptions, Repeatable, VigilOptions } from './transport.js';

export interface SignedVigilClientOptions extends Omit<VigilOptions, 'apiKey' | 'maxRetries'> {
  /** The ed25519 key whose hotkey is registered on netuid 76 (see keypairFromSeed / parseKeypairFile). */
  keypair: VigilKeypair;
  /** An API token sent beside the signature (optional: the signed endpoints need none). */
  apiKey?: string | null;
  /**
   * The deployment every signature is bound to: the server's `server_hotkey` (what
   * `GET /v1/server-identity` answers). When absent, the client reads `/v1/server-identity` once,
   * before its first signed request, and keeps it. Pin it (e.g. from configuration) so that a
   * server answering with another identity is never signed for.
   */
  audience?: string;
  /**
   * Retries after the first attempt (default 0: a signed call may change state, so retrying is the
   * caller's decision). Each attempt is signed again with a fresh timestamp, because the server
   * accepts each signature once.
   */
  maxRetries?: number;
}

export interface SignedRequestOptions<S extends z.ZodType | undefined = undefined> extends CallOptions {
  /** Validates the 2xx body; a mismatch throws VigilResponseError. */
  schema?: S;
  /** How the request may be repeated when `maxRetries` allows (default: `safe` for GET and HEAD, else `answered`). */
  repeatable?: Repeatable;
}

/** Anything JSON: what `request` answers without a schema. */
const AnyJson = { safeParse: (value: unknown) => ({ success: true, data: value }) } as unknown as z.ZodType<unknown>;

/**
 * The Vigil SDK for miners and validators: the public reads of `Vigil` (network, trends, rounds,
 * leaderboard, agents), plus the signed endpoints as `miners.*` and `validators.*`, each request
 * signed with the keypair's ed25519 key (docs/client.md, "SignedVigilClient"). One transport: the
 * same retries, timeouts and errors as `Vigil`. Not a `Vigil`: a validator's bundle carries none of
 * the customer API's schemas.
 */
export class SignedVigilClient {
  readonly baseUrl: string;
  readonly hotkey: string;
  readonly miners: Miners;
  readonly validators: Validators;
  readonly network: Network;
  readonly trends: Trends;
  readonly rounds: Rounds;
  readonly leaderboard: LeaderboardResource;
  readonly agents: Agents;
  readonly #transport: Transport;
  #audience: Promise<string> | undefined;

  constructor(options: SignedVigilClientOptions) {
    const keypair = options?.keypair;
    if (typeof keypair !== 'object' || keypair === null || !(keypair.secretKey instanceof Uint8Array) || typeof keypair.hotkey !== 'string') {
      throw new TypeError('options.keypair: expected { secretKey, publicKey, hotkey } from keypairFromSeed or parseKeypairFile');
    }
    // A hand-assembled keypair whose hotkey is not its key's address would sign as one hotkey
    // while the caller believes it is another; catch it here rather than as 401s later.
    if (keypair.secretKey.length !== 32 || keypairFromSeed(keypair.secretKey).hotkey !== keypair.hotkey) {
      throw new TypeError('options.keypair: hotkey is not the ss58 address of secretKey');
    }
    if (options.audience !== undefined && (typeof options.audience !== 'string' || !/^[\x21-\x7e]{1,128}$/.test(options.audience))) {
      throw new TypeError('options.audience: expected the server identity key or deployment id (1-128 printable ASCII, no spaces)');
    }
    const signer = new HotkeySigner({
      keypair,
      now: options.now ?? Date.now,
      sleep: options.sleep ?? abortableSleep,
      audience: (signal) => this.audience(signal ? { signal } : {}),
    });
    const transport = new Transport({ ...options, apiKey: options.apiKey ?? null, maxRetries: options.maxRetries ?? 0, [SIGNER]: signer });
    this.#transport = transport;
    this.baseUrl = transport.baseUrl;
    this.hotkey = keypair.hotkey;
    this.miners = new Miners(transport);
    this.validators = new Validators(transport);
    this.network = new Network(transport);
    this.trends = new Trends(transport);
    this.rounds = new Rounds(transport);
    this.leaderboard = new LeaderboardResource(transport);
    this.agents = new Agents(transport);
    if (options.audience !== undefined) this.#audience = Promise.resolve(options.audience);
  }

  /** The audience signatures are bound to: given, or read once from /v1/server-identity. */
  audience(options: { signal?: AbortSignal } = {}): Promise<string> {
    if (this.#audience === undefined) {
      const pending = this.network.identity(options.signal ? { signal: options.signal } : {}).then((identity) => identity.server_hotkey);
      // A failed read is not kept: the next request asks again.
      pending.catch(() => {
        if (this.#audience === pending) this.#audience = undefined;
      });
      this.#audience = pending;
    }
    return this.#audience;
  }

  /**
   * Sends one signed request and returns the parsed JSON answer as sent (timestamps as strings):
   * for an endpoint without a method here. `pathWithQuery` is relative to baseUrl, already
   * percent-encoded (`/v1/…?k=v`); `body` is serialized to JSON once and those exact bytes are both
   * hashed into the signature and sent.
   */
  request<S extends z.ZodType>(method: string, pathWithQuery: string, body: unknown, options: SignedRequestOptions<S> & { schema: S }): Promise<z.output<S>>;
  request(method: string, pathWithQuery: string, body?: unknown, options?: SignedRequestOptions): Promise<unknown>;
  async request(method: string, pathWithQuery: string, body?: unknown, options: SignedRequestOptions<z.ZodType | undefined> = {}): Promise<unknown> {
    const verb = verbOf(method);
    const { schema, repeatable, ...call } = options;
    const spec = {
      method: verb,
      path: checkedPath(pathWithQuery),
      ...(body === undefined ? {} : { body: { json: body } }),
      schema: schema ?? AnyJson,
      repeatable: repeatable ?? defaultRepeatable(verb),
      signed: true,
      dates: false,
    };
    // `dates: false`: the answer exactly as sent, as this method has always returned it.
    return (await this.#transport.request(spec, call)).data;
  }

  /**
   * Sends one signed GET and returns the answer's bytes as they came, for an endpoint that answers
   * something other than JSON without a method here. Errors and retries are those of `request`.
   */
  download(pathWithQuery: string, options: CallOptions = {}): Promise<Uint8Array> {
    return this.#transport.bytes({ method: 'GET', path: checkedPath(pathWithQuery), repeatable: 'safe', signed: true }, options);
  }
}

function verbOf(method: unknown): string {
  if (typeof method !== 'string' || !/^[A-Za-z]+$/.test(method)) throw new TypeError('method: expected an HTTP method name');
  return method.toUpperCase();
}

function defaultRepeatable(verb: string): Repeatable {
  return verb === 'GET' || verb === 'HEAD' ? 'safe' : 'answered';
}

/** A request target as given: it is signed byte for byte, so nothing may be left for fetch to rewrite. */
function checkedPath(pathWithQuery: unknown): string {
  if (typeof pathWithQuery !== 'string' || !pathWithQuery.startsWith('/')) throw new TypeError('pathWithQuery: expected a path starting with "/"');
  if (!/^[\x21-\x7e]*$/.test(pathWithQuery) || pathWithQuery.includes('#')) {
    throw new TypeError('pathWithQuery: expected printable ASCII without spaces or "#"; percent-encode the rest');
  }
  return pathWithQuery;
}
