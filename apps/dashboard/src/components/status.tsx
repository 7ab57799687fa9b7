import type { ComponentChildren } from 'preact';
import type { Failure } from '../api.js';
import type { Resource } from '../lib/use-resource.js';
import { useNow } from '../lib/use-resource.js';
import { Countdown } from './time.js';

export function Loading({ what }: { what: string }) {
  return (
    <p class="state loading" role="status">
      Loading {what}…
    </p>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="state empty">{children}</p>;
}

function RetryIn({ at }: { at: number }) {
  const now = useNow();
  return <Countdown deadline={at} now={now} />;
}

/** A failed read, said the way a reader needs it: what happened, and what happens next. */
export function FailureNotice({ failure, retryAt, onRetry }: { failure: Failure; retryAt: number | null; onRetry: () => void }) {
  let message: ComponentChildren;
  switch (failure.kind) {
    case 'rate_limited':
      message = <>Too many requests from this address (429 rate limit exceeded).</>;
      break;
    case 'server':
      message = (
        <>
          The server could not answer ({failure.status} {failure.detail}).
          {failure.requestId ? <> Request id: <code>{failure.requestId}</code>.</> : null}
        </>
      );
      break;
    case 'unreachable':
      message = <>The server cannot be reached ({failure.message}).</>;
      break;
    case 'not_found':
      message = <>Not found ({failure.detail}).</>;
      break;
    case 'unauthorized':
      message = <>The API key was refused ({failure.status} {failure.detail}). Check the key, its <code>read</code> scope, and that it is not revoked.</>;
      break;
    case 'refused':
      message = <>The server refused the request ({failure.status} {failure.detail}).</>;
      break;
    case 'mismatch':
      message = <>The server's answer does not match this dashboard's version of the API ({failure.message}).</>;
      break;
  }
  return (
    <div class={`state error ${failure.kind}`} role="alert">
      <p>{message}</p>
      {retryAt !== null ? (
        <p>
          Trying again in <RetryIn at={retryAt} />.{' '}
          <button type="button" onClick={onRetry} disabled={failure.kind === 'rate_limited'}>
            Retry now
          </button>
        </p>
      ) : failure.kind === 'not_found' ? null : (
        <p>
          <button type="button" onClick={onRetry}>
            Retry
          </button>
        </p>
      )}
    </div>
  );
}

/** Loading, then the content; a failure is explained above the last good content, if any. */
export function Show<T>({
  resource,
  what,
  reload,
  children,
}: {
  resource: Resource<T>;
  what: string;
  reload: () => void;
  children: (data: T) => ComponentChildren;
}) {
  if (resource.status === 'loading') return <Loading what={what} />;
  if (resource.status === 'ok') return <>{children(resource.data)}</>;
  return (
    <>
      <FailureNotice failure={resource.failure} retryAt={resource.retryAt} onRetry={reload} />
      {resource.data !== undefined ? children(resource.data) : null}
    </>
  );
}
