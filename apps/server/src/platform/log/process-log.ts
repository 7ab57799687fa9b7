/** The part of a pino / fastify logger the runtime and the workers write to. */
export interface LogLike {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * The process's log before and after there is an app logger: until `attach`, info lines go to
 * stdout and warnings and errors to stderr as `<message> <json>`; afterwards everything goes to the
 * attached logger (the app's, so its redaction and level apply).
 */
export interface ProcessLog extends LogLike {
  attach(logger: LogLike): void;
  readonly attached: boolean;
}

export function createProcessLog(): ProcessLog {
  let target: LogLike | undefined;
  const line = (stream: NodeJS.WriteStream, obj: object, msg: string) => stream.write(`${msg} ${JSON.stringify(obj)}\n`);
  return {
    info: (obj, msg) => (target ? target.info(obj, msg) : line(process.stdout, obj, msg)),
    warn: (obj, msg) => (target ? target.warn(obj, msg) : line(process.stderr, obj, msg)),
    error: (obj, msg) => (target ? target.error(obj, msg) : line(process.stderr, obj, msg)),
    attach(logger) {
      target = logger;
    },
    get attached() {
      return target !== undefined;
    },
  };
}
