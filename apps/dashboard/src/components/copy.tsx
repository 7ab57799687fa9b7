import { useEffect, useState } from 'preact/hooks';
import { shortKey } from '../lib/format.js';

/**
 * A button that copies `value` to the clipboard: a real <button>, so the keyboard reaches it.
 * What happened is said in a polite live region beside it ("Copied", or how to copy by hand).
 */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 4000);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <span class="copy">
      <button
        type="button"
        class="copy-button"
        aria-label={label}
        onClick={() => {
          const clipboard = typeof navigator !== 'undefined' ? navigator.clipboard : undefined;
          if (!clipboard) return setState('failed');
          clipboard.writeText(value).then(
            () => setState('copied'),
            () => setState('failed'),
          );
        }}
      >
        Copy
      </button>
      <span class="copy-status" role="status">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed: select the text instead' : ''}
      </span>
    </span>
  );
}

/** A hotkey in full (it wraps on a narrow screen), with a copy button. */
export function FullKey({ value, what = 'hotkey' }: { value: string; what?: string }) {
  return (
    <>
      <code class="key">{value}</code> <CopyButton value={value} label={`Copy ${what} ${value}`} />
    </>
  );
}

/** A hotkey shortened to fit a table cell, the full one on hover and through its copy button. */
export function ShortKey({ value, what = 'hotkey' }: { value: string; what?: string }) {
  return (
    <span class="short-key">
      <code title={value}>{shortKey(value)}</code> <CopyButton value={value} label={`Copy ${what} ${value}`} />
    </span>
  );
}
