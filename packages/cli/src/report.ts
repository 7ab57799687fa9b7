import { KeypairError, VigilApiError, VigilError } from '@vigil/client';
import { CliError, EXIT, UsageError } from './exit-codes.js';
import type { Io } from './io.js';

/** The exit status and message of an error a command threw (anything but commander's own). */
export function report(err: unknown, io: Io): number {
  if (err instanceof UsageError) {
    io.stderr(`vigil: ${err.message}\n(run "vigil --help" for usage)\n`);
    return EXIT.usage;
  }
  if (err instanceof KeypairError) {
    // The SDK's message starts with the field, `keyfile: …` for the file as a whole: said once.
    io.stderr(`vigil: keyfile: ${err.message.replace(/^keyfile: /, '')}\n`);
    return EXIT.error;
  }
  if (err instanceof VigilError) {
    io.stderr(describeVigilError(err));
    return EXIT.error;
  }
  if (err instanceof CliError) {
    io.stderr(`vigil: ${err.message}\n`);
    return EXIT.error;
  }
  // The SDK refuses a bad argument with a TypeError naming it before anything is sent.
  if (err instanceof TypeError && /^[a-zA-Z.]+: /.test(err.message)) {
    io.stderr(`vigil: ${err.message}\n(run "vigil --help" for usage)\n`);
    return EXIT.usage;
  }
  const cause = (err as { cause?: { message?: string } }).cause;
  io.stderr(`vigil: ${(err as Error).message ?? String(err)}${cause?.message ? `: ${cause.message}` : ''}\n`);
  return EXIT.error;
}

/** `vigil: 404 agent not found (request id …)`, then the 422 issues one per line. */
export function describeVigilError(err: VigilError): string {
  const status = err.status === null ? '' : `${err.status} `;
  const id = err.requestId ? ` (request id ${err.requestId})` : '';
  // A body without Vigil's `{detail}` is another server's page (a proxy, a wrong --base-url): one line of it is enough.
  const foreign = err instanceof VigilApiError && err.body === null;
  let text = `vigil: ${status}${foreign ? oneLine(err.detail) : err.detail}${id}\n`;
  if (foreign) text += '  not an answer of a Vigil API (no JSON detail): is the base URL right?\n';
  if (err instanceof VigilApiError) for (const issue of err.errors) text += `  ${issue.path}: ${issue.message}\n`;
  const path = (err as { path?: unknown }).path;
  if (err.name === 'VigilResponseError' && typeof path === 'string' && path !== '') text += `  the answer's ${path} does not match @vigil/core's schema (a server of another version?)\n`;
  return text;
}

const FOREIGN_BODY_CHARS = 200;

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > FOREIGN_BODY_CHARS ? `${flat.slice(0, FOREIGN_BODY_CHARS)}…` : flat;
}
