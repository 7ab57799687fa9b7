import { useEffect, useState } from 'preact/hooks';
import { TRACKS, type Track } from '@vigil/core';
import { DASHBOARD_ROUTES } from '../../routes.js';

export type Route =
  | { page: 'network' }
  /** `adjustedFrom`: the address's `?days=` when it was not a number from 1 to 180 (the page says so). */
  | { page: 'threats'; days: number; adjustedFrom: string | null }
  | { page: 'rounds' }
  | { page: 'round'; roundId: string }
  | { page: 'miner'; roundId: string; hotkey: string }
  | { page: 'leaderboard'; track: Track }
  | { page: 'agents'; track: Track | undefined }
  | { page: 'agent'; hotkey: string; track: Track | undefined }
  | { page: 'verify' }
  /** By package reference (`?purl=`) or, when that is absent, by content hash (`?sha256=`). */
  | { page: 'artifact'; purl: string; sha256: string }
  /** The account's registry firewall decisions over the last `days` (1–90, default 30). */
  | { page: 'firewall'; days: number }
  | { page: 'not_found'; path: string };

export const DEFAULT_DAYS = 30;
export const MIN_DAYS = 1;
export const MAX_DAYS = 180;

/**
 * `?days=` as the server takes it (1–180). A whole number outside that range is clamped to it
 * (500 → 180, 0 → 1); anything else, or no `days`, is the server's default of 30.
 */
export function daysFrom(text: string | null): number {
  if (text === null || !/^\d+$/.test(text)) return DEFAULT_DAYS;
  return Math.min(MAX_DAYS, Math.max(MIN_DAYS, Number(text)));
}

/** The address's `?days=` when the page shows another number of days than it says (null: as asked). */
function daysAdjusted(text: string | null): string | null {
  return text === null || daysFrom(text) === Number(text) ? null : text;
}

function trackFrom(text: string | null): Track | undefined {
  return (TRACKS as readonly string[]).includes(text ?? '') ? (text as Track) : undefined;
}

type Builder = (params: Record<string, string>, query: URLSearchParams) => Route;

/** One page per pattern of DASHBOARD_ROUTES (the list vigil-server serves index.html for). */
const PAGES: Record<string, Builder> = {
  '/': () => ({ page: 'network' }),
  '/threats': (_p, q) => ({ page: 'threats', days: daysFrom(q.get('days')), adjustedFrom: daysAdjusted(q.get('days')) }),
  '/rounds': () => ({ page: 'rounds' }),
  '/rounds/:roundId': (p) => ({ page: 'round', roundId: p.roundId! }),
  '/rounds/:roundId/miners/:hotkey': (p) => ({ page: 'miner', roundId: p.roundId!, hotkey: p.hotkey! }),
  '/leaderboard': (_p, q) => ({ page: 'leaderboard', track: trackFrom(q.get('track')) ?? 'skills' }),
  '/agents': (_p, q) => ({ page: 'agents', track: trackFrom(q.get('track')) }),
  '/agents/:hotkey': (p, q) => ({ page: 'agent', hotkey: p.hotkey!, track: trackFrom(q.get('track')) }),
  '/verify': () => ({ page: 'verify' }),
  '/firewall': (_p, q) => ({ page: 'firewall', days: Math.min(90, daysFrom(q.get('days'))) }),
  '/artifacts': (_p, q) => ({ page: 'artifact', purl: q.get('purl') ?? '', sha256: q.has('purl') ? '' : (q.get('sha256') ?? '') }),
};

const MATCHERS = DASHBOARD_ROUTES.map((pattern) => {
  const names: string[] = [];
  const source = pattern.replace(/:([A-Za-z]+)/g, (_m, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const build = PAGES[pattern];
  if (!build) throw new Error(`routes.js names ${pattern}, which no page serves`);
  return { regex: new RegExp(`^${source}$`), names, build };
});

export function parseRoute(pathname: string, search: string): Route {
  const query = new URLSearchParams(search);
  for (const { regex, names, build } of MATCHERS) {
    const match = regex.exec(pathname);
    if (!match) continue;
    const params: Record<string, string> = {};
    names.forEach((name, i) => {
      params[name] = decodeURIComponent(match[i + 1]!);
    });
    return build(params, query);
  }
  return { page: 'not_found', path: pathname };
}

const NAVIGATED = 'vigil:navigate';

/** After the first page, focus moves to each new page's heading (PageHeading). */
function markNavigated(): void {
  document.body.dataset.navigated = 'true';
}

export function navigate(href: string): void {
  markNavigated();
  history.pushState(null, '', href);
  window.dispatchEvent(new Event(NAVIGATED));
}

export function useLocation(): { pathname: string; search: string } {
  const read = () => ({ pathname: location.pathname, search: location.search });
  const [where, setWhere] = useState(read);
  useEffect(() => {
    const update = () => {
      markNavigated();
      setWhere(read());
    };
    window.addEventListener('popstate', update);
    window.addEventListener(NAVIGATED, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(NAVIGATED, update);
    };
  }, []);
  return where;
}

/** Same-document navigation for plain left clicks on internal links; others (new tab, …) stay native. */
export function interceptLinkClicks(root: HTMLElement): () => void {
  const onClick = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const anchor = (event.target as Element | null)?.closest?.('a');
    if (!anchor || anchor.target || anchor.hasAttribute('download')) return;
    const url = new URL(anchor.href, location.href);
    if (url.origin !== location.origin || parseRoute(url.pathname, url.search).page === 'not_found') return;
    // A link to a place on this same page (`#id`) is the browser's: it scrolls to and focuses the target.
    if (url.hash !== '' && url.pathname + url.search === location.pathname + location.search) return;
    event.preventDefault();
    if (url.pathname + url.search !== location.pathname + location.search) navigate(url.pathname + url.search);
  };
  root.addEventListener('click', onClick);
  return () => root.removeEventListener('click', onClick);
}
