import { Redis, type Command } from 'ioredis';

const COMMAND_TIMED_OUT = 'Command timed out';

/**
 * A client that replaces its connection when a command times out. ioredis gives up on the command
 * but keeps the connection, and keeps the command in its queue of sent commands: on a connection
 * that silently lost bytes (a blackholed network, a NAT that forgot the flow), every later answer
 * is matched to a command that timed out before it, so every command times out too, for as long as
 * the socket stays open (TCP keepalive notices after minutes, if at all). Reconnecting drops that
 * queue: the next commands go out on a fresh connection.
 */
class ReconnectingRedis extends Redis {
  /** The connection already being replaced: the commands that timed out together on it ask once. */
  private replacing: Redis['stream'] | undefined;

  override sendCommand(command: Command, stream?: Parameters<Redis['sendCommand']>[1]): unknown {
    const sent = super.sendCommand(command, stream);
    command.promise.catch((error: unknown) => {
      if ((error as Error | undefined)?.message !== COMMAND_TIMED_OUT || this.status !== 'ready' || this.stream === this.replacing) return;
      this.replacing = this.stream;
      this.disconnect(true);
    });
    return sent;
  }
}

/**
 * Opens a Redis client suited to per-request use: fail fast instead of queueing requests behind an
 * outage. `commandTimeout` also bounds a Redis that accepts connections and never answers, which
 * neither the connect timeout nor the retry limit would notice; a command that times out replaces
 * the connection it was sent on.
 */
export function connectRedis(url: string, timeoutMs: number): Redis {
  return new ReconnectingRedis(url, {
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 1,
    lazyConnect: false,
  });
}
