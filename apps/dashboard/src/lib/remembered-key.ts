import { useState } from 'preact/hooks';

// The API key the reader typed, for this tab's life only: a module variable, so it survives moving
// between the pages that ask for it (Artifact, Firewall) but not a reload. Never written to
// localStorage, sessionStorage, a cookie or the URL.
export const rememberedKey = { value: '' };

/** The remembered key as a page's state, and the setter that remembers a new one for the other pages. */
export function useRememberedKey(): [string, (key: string) => void] {
  const [apiKey, setApiKey] = useState(rememberedKey.value);
  const remember = (key: string) => {
    rememberedKey.value = key;
    setApiKey(key);
  };
  return [apiKey, remember];
}
