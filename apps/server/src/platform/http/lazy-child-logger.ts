import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

type ChildLoggerFactory = NonNullable<FastifyServerOptions['childLoggerFactory']>;

type Bindings = Record<string, unknown>;
type ChildOptions = { level?: string } & Record<string, unknown>;
type LogFn = (...args: unknown[]) => void;

/**
 * fastify gives every request a child logger bound to its id. pino builds a child eagerly, serializing
 * its bindings, although most requests log nothing at the configured level. This child is built on
 * the first call that would actually write, so quiet requests pay for one small object.
 */
class LazyChildLogger {
  #real: FastifyBaseLogger | undefined;
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildOptions | undefined;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildOptions | undefined) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  #materialize(): FastifyBaseLogger {
    return (this.#real ??= this.#parent.child(this.#bindings, this.#options));
  }

  #write(level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace', args: unknown[]): void {
    if (this.#real === undefined && this.#options?.level === undefined) {
      const enabled = (this.#parent as { isLevelEnabled?: (l: string) => boolean }).isLevelEnabled?.(level);
      if (enabled === false) return;
    }
    (this.#materialize()[level] as LogFn)(...args);
  }

  get level(): string {
    return this.#real?.level ?? this.#options?.level ?? this.#parent.level;
  }
  set level(value: string) {
    this.#materialize().level = value;
  }
  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.#materialize().child(bindings, options);
  }
  silent(): void {}
  fatal(...args: unknown[]): void {
    this.#write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.#write('error', args);
  }
  warn(...args: unknown[]): void {
    this.#write('warn', args);
  }
  info(...args: unknown[]): void {
    this.#write('info', args);
  }
  debug(...args: unknown[]): void {
    this.#write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.#write('trace', args);
  }
}

/** fastify's `childLoggerFactory`, building each request's logger lazily. */
export const lazyChildLoggerFactory: ChildLoggerFactory = (logger, bindings, options) =>
  new LazyChildLogger(logger, bindings, options as ChildOptions) as unknown as FastifyBaseLogger;
