import { readFile } from 'node:fs/promises';
import { SignedVigilClient, Vigil, parseKeypairFile } from '@vigil/client';
import { PackageRefError, parsePackageRef } from '@vigil/core';
import type { Command } from 'commander';
import { resolveConnection, type Connection, type GlobalOptions } from './config.js';
import { CliError, UsageError } from './exit-codes.js';
import { lightFetch } from './http-fetch.js';
import type { Io } from './io.js';
import { Output, Progress } from './output.js';

/**
 * `--json` prints the server's answer as it sent it. The SDK hands back parsed values with timestamps
 * as `Date` (which would print in another form), so the fetch it is given keeps the last successful
 * answer's body text, and `--json` prints that.
 */
class AnswerRecorder {
  last: unknown = undefined;
  /** The last successful answer's `Retry-After` in ms (seconds or an HTTP date), null without one: `--wait` honours it. */
  retryAfterMs: number | null = null;

  wrap(inner: typeof globalThis.fetch): typeof globalThis.fetch {
    return async (input, init) => {
      const response = await inner(input, init);
      if (response.ok) this.retryAfterMs = retryAfterMs(response.headers.get('retry-after'));
      if (response.ok && (response.headers.get('content-type') ?? '').includes('json')) {
        const text = await response.clone().text();
        try {
          this.last = JSON.parse(text);
        } catch {
          this.last = undefined;
        }
      }
      return response;
    };
  }
}

function retryAfterMs(header: string | null): number | null {
  if (header === null || header.trim() === '') return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1_000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** What a command's action gets: the output, the connection and clients, made on first use. */
export class Context {
  readonly out: Output;
  readonly progress: Progress;
  readonly recorder = new AnswerRecorder();
  private connection: Promise<Connection> | null = null;
  private client: Vigil | null = null;

  constructor(
    readonly io: Io,
    readonly options: GlobalOptions,
  ) {
    this.out = new Output(io, options.json === true || options.compact === true, options.color === false, options.compact === true);
    this.progress = new Progress(io);
  }

  static of(io: Io, command: Command): Context {
    return new Context(io, command.optsWithGlobals<GlobalOptions>());
  }

  get json(): boolean {
    return this.out.json;
  }

  connect(): Promise<Connection> {
    this.connection ??= resolveConnection(this.io, this.options);
    return this.connection;
  }

  /** The fetch of `io`, else lightFetch: node:http, without the start-up cost of Node's own fetch. */
  fetch(): typeof globalThis.fetch {
    return this.recorder.wrap(this.io.fetch ?? lightFetch(() => globalThis.fetch));
  }

  /** The SDK client: with the token when one is configured, else public reads only. */
  async vigil(): Promise<Vigil> {
    if (this.client) return this.client;
    const { baseUrl, token } = await this.connect();
    const options = { baseUrl, fetch: this.fetch(), headers: { 'user-agent': USER_AGENT } };
    try {
      this.client = token === null ? Vigil.public(options) : new Vigil({ ...options, apiKey: token });
    } catch (err) {
      throw new UsageError(connectionOptionMessage(err as Error));
    }
    return this.client;
  }

  /** The SDK client for a customer endpoint: a token is required, said before anything is sent. */
  async customer(): Promise<Vigil> {
    const { token } = await this.connect();
    if (token === null) throw new UsageError('this command needs an API token: pass --token, set VIGIL_API_TOKEN, or run vigil login');
    return this.vigil();
  }

  /** The signed client of a miner or validator, from the keyfile (`--keyfile` or VIGIL_KEYFILE). */
  async signed(keyfile: string | undefined): Promise<SignedVigilClient> {
    const path = keyfile ?? (this.io.env.VIGIL_KEYFILE || undefined);
    if (!path) throw new UsageError('--keyfile: required (the hotkey file from vigil keygen), or set VIGIL_KEYFILE');
    const keypair = parseKeypairFile(await readText(this.io, path, '--keyfile'));
    const { baseUrl, token } = await this.connect();
    try {
      return new SignedVigilClient({ baseUrl, keypair, fetch: this.fetch(), headers: { 'user-agent': USER_AGENT }, ...(token ? { apiKey: token } : {}) });
    } catch (err) {
      throw new UsageError(connectionOptionMessage(err as Error));
    }
  }

  /**
   * Prints a server answer: with `--json`, the body exactly as the server sent it (`raw` replaces
   * it for answers assembled from several calls); otherwise `human` renders it for people.
   */
  emit(human: () => void, raw?: unknown): void {
    if (this.json) this.out.printJson(raw !== undefined ? raw : this.recorder.last);
    else human();
  }

  /** Runs long work with the progress indicator (stderr, terminal only). */
  async withProgress<T>(text: string, work: (progress: Progress) => Promise<T>): Promise<T> {
    this.progress.start(text);
    try {
      return await work(this.progress);
    } finally {
      this.progress.stop();
    }
  }
}

const USER_AGENT = 'vigil-cli';

/**
 * The SDK's refusal of a connection option in the user's terms: it names its own option
 * (`options.baseUrl: …`) and says null is allowed, which only a program can pass.
 */
export function connectionOptionMessage(err: Error, names = { baseUrl: 'base URL (--base-url, VIGIL_BASE_URL)', apiKey: 'token (--token, VIGIL_API_TOKEN)' }): string {
  return err.message
    .replace(/^options\.baseUrl/, names.baseUrl)
    .replace(/^options\.apiKey/, names.apiKey)
    .replace(/, or null$/, '');
}

/** A file's text, or standard input for `-`. */
export async function readText(io: Io, path: string, argument: string): Promise<string> {
  if (path === '-') {
    if (!io.readStdin) throw new UsageError(`${argument}: standard input is not available`);
    return io.readStdin();
  }
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw new CliError(`${argument}: cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

export async function readJson(io: Io, path: string, argument: string): Promise<unknown> {
  const text = await readText(io, path, argument);
  try {
    // A leading UTF-8 byte order mark (PowerShell's Out-File writes one) is not JSON, but the server accepts it, so the CLI does too.
    return JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
  } catch (err) {
    throw new CliError(`${argument}: ${path === '-' ? 'standard input' : path} is not JSON: ${(err as Error).message}`);
  }
}

export function intArg(name: string, min: number, max: number): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) throw new UsageError(`${name}: expected an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
    return Number(value);
  };
}

export function choiceArg<T extends string>(name: string, choices: readonly T[]): (value: string) => T {
  return (value) => {
    if (!(choices as readonly string[]).includes(value)) throw new UsageError(`${name}: expected one of ${choices.join(', ')}, got ${JSON.stringify(value)}`);
    return value as T;
  };
}

/**
 * A package reference checked as the server checks it (`parsePackageRef` of @vigil/core), so a
 * malformed one is a usage error (exit 2) before anything is sent; it is sent as written.
 */
export function packageRefArg(argument: string, value: string): string {
  try {
    parsePackageRef(value);
  } catch (err) {
    if (err instanceof PackageRefError) throw new UsageError(`${argument}: ${err.message.replace(/^input: /, '')}`);
    throw err;
  }
  return value;
}
