import { BlobStoreUnavailableError } from './blobs/blob-store.js';

/** Socket errors of a database or cache client that could not reach its server. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE']);

/** PostgreSQL SQLSTATEs that say the server cannot serve now, not that the request is wrong. */
const UNAVAILABLE_SQLSTATE = /^(08...|53...|55000|57014|57P0[1-3])$/;

/** pg and ioredis client-side failures: a lost or silent connection, a full pool, a command timeout. */
const UNAVAILABLE_MESSAGE =
  /^(timeout exceeded when trying to connect|Connection terminated|Query read timeout|Client has encountered a connection error|Client was closed|Command timed out|Connection is closed|Reached the max retries per request limit|Stream isn't writeable)/;

/**
 * A dependency (PostgreSQL, Redis) that did not answer or cannot serve now: 502, retryable, rather
 * than a 500 that reads like a bug. PostgreSQL's class 08 (connection exception), class 53
 * (insufficient resources: too many connections), 55000 (database not accepting connections),
 * 57014 (statement timeout) and 57P01–57P03 (shutting down, cannot connect now) count; so do socket
 * errors, a pool that could not hand out a connection in time and a Redis command that timed out,
 * and the object store (VIGIL_BLOB_STORE=s3) failing, timing out or serving bytes that are not
 * their name's after its retries.
 */
export function isUpstreamUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if (error instanceof BlobStoreUnavailableError) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message);
}
