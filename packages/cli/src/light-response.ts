/**
 * The answer of `lightFetch` (src/http-fetch.ts): the part of fetch's `Response` that the SDK and
 * `vigil` read, without Node's own `Response` and `Headers`. The first use of either loads Node's
 * fetch implementation (undici), about 60 ms of CPU: a fifth of what a public read costs on top of
 * Node's own start (docs/benchmarks.md, "Command-line start-up").
 *
 * As fetch's: `status`, `statusText`, `ok`, `url`, `redirected`, `headers` (case-insensitive `get`,
 * `has`, iteration in name order, `getSetCookie`), a body read once (`text`, `json`,
 * `arrayBuffer`, `bytes`, `blob`, or `body` as a stream) and `clone` before it is read. Not
 * supported: `formData()` (no Vigil answer is a form), which rejects.
 */
export class LightResponse {
  readonly ok: boolean;
  readonly headers: LightHeaders;
  readonly type = 'basic';
  #bytes: Uint8Array | null;
  #used = false;

  constructor(
    bytes: Uint8Array | null,
    readonly status: number,
    readonly statusText: string,
    headers: LightHeaders,
    readonly url: string,
    readonly redirected: boolean,
  ) {
    this.#bytes = bytes;
    this.ok = status >= 200 && status <= 299;
    this.headers = headers;
  }

  get bodyUsed(): boolean {
    return this.#used;
  }

  /** The body as a stream (null when there is none); reading it uses the body up, as fetch's does. */
  get body(): ReadableStream<Uint8Array> | null {
    if (this.#bytes === null) return null;
    const bytes = this.#take();
    return new ReadableStream<Uint8Array>({
      start(controller) {
        if (bytes.byteLength > 0) controller.enqueue(bytes);
        controller.close();
      },
    });
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(this.#take());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async bytes(): Promise<Uint8Array> {
    return this.#take().slice();
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = this.#take();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async blob(): Promise<Blob> {
    return new Blob([this.#take().slice()], { type: this.headers.get('content-type') ?? '' });
  }

  async formData(): Promise<never> {
    throw new TypeError('formData() is not supported by vigil’s HTTP client');
  }

  clone(): LightResponse {
    if (this.#used) throw new TypeError('Response.clone: Body has already been consumed.');
    return new LightResponse(this.#bytes, this.status, this.statusText, this.headers.copy(), this.url, this.redirected);
  }

  #take(): Uint8Array {
    if (this.#used) throw new TypeError('Body is unusable: Body has already been read');
    this.#used = true;
    return this.#bytes ?? new Uint8Array(0);
  }
}

/** The answer's headers, by lower-case name; a repeated header is one value joined by ", ", as fetch's. */
export class LightHeaders {
  readonly #values = new Map<string, string[]>();

  append(name: string, value: string): void {
    const key = name.toLowerCase();
    const values = this.#values.get(key);
    if (values) values.push(value);
    else this.#values.set(key, [value]);
  }

  get(name: string): string | null {
    return this.#values.get(name.toLowerCase())?.join(', ') ?? null;
  }

  has(name: string): boolean {
    return this.#values.has(name.toLowerCase());
  }

  getSetCookie(): string[] {
    return [...(this.#values.get('set-cookie') ?? [])];
  }

  forEach(callback: (value: string, name: string, headers: LightHeaders) => void): void {
    for (const [name, value] of this.entries()) callback(value, name, this);
  }

  *entries(): IterableIterator<[string, string]> {
    for (const name of [...this.#values.keys()].sort()) {
      if (name === 'set-cookie') for (const cookie of this.#values.get(name)!) yield [name, cookie];
      else yield [name, this.get(name)!];
    }
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  copy(): LightHeaders {
    const copy = new LightHeaders();
    for (const [name, values] of this.#values) for (const value of values) copy.append(name, value);
    return copy;
  }
}
