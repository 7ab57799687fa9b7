import type { SourceRepositoryCoordinates } from './source-provider.js';

/** GitHub's own limits: owners are 1-39 letters, digits and inner hyphens; repository names 1-100 of `A-Za-z0-9._-`. */
const OWNER_RE = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?$/;
const NAME_RE = /^[A-Za-z0-9._-]{1,100}$/;

export const GITHUB_HOST = 'github.com';

export interface GithubRepositoryUrl extends SourceRepositoryCoordinates {
  /** `https://github.com/<owner>/<name>.git`: the form the record shows. */
  cloneUrl: string;
  /** `github.com/<owner>/<name>` lowercased: GitHub names are case-insensitive, so this is what matches. */
  key: string;
}

/**
 * Reads a GitHub repository URL: `https://github.com/<owner>/<name>` with an optional `.git` and an
 * optional trailing slash (the clone URL and the page URL both). Anything else (another host, a
 * deeper path, a query, credentials, a port) is null: it names no repository Vigil can fetch.
 */
export function parseGithubRepositoryUrl(text: string): GithubRepositoryUrl | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.hostname.toLowerCase() !== GITHUB_HOST || url.port !== '') return null;
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') return null;
  // URL drops a default port (`:443`); the text is refused all the same, as the docs say of any port.
  if (/^[^:]+:\/\/[^/]*:/.test(text)) return null;
  const match = /^\/([^/]+)\/([^/]+?)(?:\.git)?\/?$/.exec(url.pathname);
  if (match === null) return null;
  const owner = match[1]!;
  const name = match[2]!;
  // `/<owner>/.git` would otherwise read as a repository named `.git`, which GitHub does not allow.
  if (!OWNER_RE.test(owner) || !NAME_RE.test(name) || name === '.' || name === '..' || name.toLowerCase().endsWith('.git')) return null;
  return {
    owner,
    name,
    cloneUrl: `https://${GITHUB_HOST}/${owner}/${name}.git`,
    key: `${GITHUB_HOST}/${owner}/${name}`.toLowerCase(),
  };
}
