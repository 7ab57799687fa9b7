import { Redis, type Command } from 'ioredis';

const COMMAND_TIMED_OUT = 'Command timed out';

/**
 * A client that sends each command at most once, and replaces its connection when a command times
 * out.
 *
 * At most once: a command the caller has been told failed (timed out, or flushed after failed
 * reconnects) is never written afterwards. ioredis would otherwise send it behind the caller's
 * back: from its offline queue once a connection is ready, however long ago the command timed out,
 * and (`autoResendUnfulfilledCommands`, off below) again on the next connection when the one it
 * was sent on closed before answering. On a slow Redis, where commands time out and connections
 * are replaced, one rate-limit increment went out up to three times, and Redis ran every copy.
 *
 * Replacing the connection: ioredis gives up on a timed-out command but keeps the connection, and
 * keeps the command in its queue of sent commands: on a connection that silently lost bytes (a
 * blackholed network, a NAT that forgot the flow), every later answer is matched to a command that
 * timed out before it, so every command times out too, for as long as the socket stays open (TCP
 * keepalive notices after minutes, if at all). Reconnecting drops that queue: the next commands go
 * out on a fresh connection.
 */
class AtMostOnceRedis extends Redis {
  /** The connection already being replaced: the commands that timed out together on it ask once. */
  private replacing: Redis['stream'] | undefined;
  /** Commands whose outcome the caller already has; the first sendCommand of each registers it. */
  private readonly watched = new WeakSet<Command>();
  private readonly givenUp = new WeakSet<Command>();

  override sendCommand(command: Command, stream?: Parameters<Redis['sendCommand']>[1]): unknown {
    // ioredis calls this again for a command it held in its offline queue. A pipeline whose command
    // is skipped here writes none of its commands: they all time out, unsent.
    if (this.givenUp.has(command)) return command.promise;
    if (!this.watched.has(command)) {
      this.watched.add(command);
      command.promise.catch((error: unknown) => {
        this.givenUp.add(command);
        if ((error as Error | undefined)?.message !== COMMAND_TIMED_OUT || this.status !== 'ready' || this.stream === this.replacing) return;
        this.replacing = this.stream;
        this.disconnect(true);
      });
    }
    return super.sendCommand(command, stream);
  }
}

/**
 * Opens a Redis client suited to per-request use: fail fast instead of queueing requests behind an
 * outage, and run each command once or not at all. `commandTimeout` also bounds a Redis that
 * accepts connections and never answers, which neither the connect timeout nor the retry limit
 * would notice, and a command waiting in the offline queue for a connection; a command that times
 * out replaces the connection it was sent on. A command whose connection closed before it was
 * answered is not sent again (Redis may already have run it): it fails at its timeout.
 */
export function connectRedis(url: string, timeoutMs: number): Redis {
  return new AtMostOnceRedis(url, {
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 1,
    autoResendUnfulfilledCommands: false,
    lazyConnect: false,
  });
}
