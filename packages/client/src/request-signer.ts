import { signRequest, signedRequestHeaders } from '@vigil/crypto';
import type { VigilKeypair } from './keypair.js';
import type { RequestSigner } from './transport.js';

/** How far ahead of the clock a repeated request may be signed (the server accepts 120 s). */
const MAX_SIGNING_LEAD_S = 30;

export interface HotkeySignerOptions {
  keypair: VigilKeypair;
  /** Milliseconds since the epoch, read once per attempt. */
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The server identity every signature is bound to (pinned, or read once from the server). */
  audience: (signal: AbortSignal | undefined) => Promise<string>;
}

/** Signs each attempt of a miner's or validator's request with its hotkey (docs/crypto.md, "Signed requests"). */
export class HotkeySigner implements RequestSigner {
  readonly #o: HotkeySignerOptions;
  /** Last timestamp signed per method and target: see #timestampFor. */
  readonly #lastSigned = new Map<string, number>();
  #latestNow = 0;

  constructor(options: HotkeySignerOptions) {
    this.#o = options;
  }

  async sign(method: string, target: string, body: Uint8Array, signal: AbortSignal | undefined): Promise<Record<string, string>> {
    const audience = await this.#o.audience(signal);
    const { timestamp, lead } = this.#timestampFor(`${method} ${target}`);
    // Repeating one request faster than once a second signs each repeat a second later; past
    // MAX_SIGNING_LEAD_S ahead of the clock the request waits, so a busy loop (a validator's
    // claims) never drifts out of the server's freshness window.
    if (lead > MAX_SIGNING_LEAD_S) await this.#o.sleep((lead - MAX_SIGNING_LEAD_S) * 1000, signal);
    const signed = signRequest({ audience, method, pathWithQuery: target, body, secretKey: this.#o.keypair.secretKey, timestamp });
    return signedRequestHeaders(signed);
  }

  /**
   * The server refuses a signature it has seen (replay), and the same request signed twice in one
   * second is the same signature: a validator polling `tasks/claim` or re-reading threat intel would
   * meet 401s. Each repeat of a method and target therefore signs one second later than the last,
   * well inside the freshness window for any realistic burst.
   */
  #timestampFor(key: string): { timestamp: number; lead: number } {
    const now = Math.floor(this.#o.now() / 1000);
    const last = this.#lastSigned.get(key);
    const timestamp = last !== undefined && last >= now ? last + 1 : now;
    if (this.#lastSigned.size >= 1024) {
      for (const [k, t] of this.#lastSigned) if (t < now) this.#lastSigned.delete(k);
    }
    this.#lastSigned.set(key, timestamp);
    // Measured from the latest clock reading seen, so a clock stepping back does not count as lead.
    this.#latestNow = Math.max(this.#latestNow, now);
    return { timestamp, lead: timestamp - this.#latestNow };
  }
}
