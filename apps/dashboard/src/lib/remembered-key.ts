// The API key the reader typed, for this tab's life only: a module variable, so it survives moving
// between the pages that ask for it (Artifact, Firewall) but not a reload. Never written to
// localStorage, sessionStorage, a cookie or the URL.
export const rememberedKey = { value: '' };
