import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { isApiKey } from '../api.js';

/**
 * The form of a page that reads with the reader's API key (Artifact, Firewall): the key field and
 * what it promises about the key, the page's own fields (`children`), the submit button, and the
 * first problem as an alert. The key is checked first; `onSubmit` gets a well-formed key and answers
 * the problem with the page's own fields, or null when it acted on them.
 */
export function KeyForm({
  name,
  apiKey,
  submit,
  onSubmit,
  children,
}: {
  /** The ids' prefix: `<name>-key` is the key field. */
  name: string;
  apiKey: string;
  submit: string;
  onSubmit: (key: string) => string | null;
  children?: ComponentChildren;
}) {
  const [keyText, setKeyText] = useState(apiKey);
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      class="artifact-form"
      onSubmit={(event) => {
        event.preventDefault();
        const key = keyText.trim();
        setError(isApiKey(key) ? onSubmit(key) : 'Enter an API key of the form vgl_<8 hex>_<48 hex>.');
      }}
    >
      <label for={`${name}-key`}>API key (scope read)</label>
      <p id={`${name}-key-hint`} class="hint">
        Kept in this tab's memory only, never stored (no localStorage, no cookie, not in the address): a reload forgets it. It is sent only to
        this dashboard's API server, as <code>Authorization: Bearer</code>.
      </p>
      <input
        id={`${name}-key`}
        type="password"
        autoComplete="off"
        spellcheck={false}
        aria-describedby={`${name}-key-hint`}
        value={keyText}
        onInput={(e) => setKeyText((e.target as HTMLInputElement).value)}
      />
      {children}
      <button type="submit">{submit}</button>
      {error ? (
        <p class="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}
