import { useEffect, useRef } from 'preact/hooks';
import type { DashboardApi } from './api.js';
import { ApiContext } from './lib/context.js';
import { interceptLinkClicks, parseRoute, useLocation, type Route } from './lib/router.js';
import { AgentPage } from './pages/agent.js';
import { AgentsPage } from './pages/agents.js';
import { ArtifactPage } from './pages/artifact.js';
import { LeaderboardPage } from './pages/leaderboard.js';
import { MinerPage } from './pages/miner.js';
import { NetworkPage } from './pages/network.js';
import { PageHeading } from './pages/page.js';
import { RoundPage } from './pages/round.js';
import { RoundsPage } from './pages/rounds.js';
import { ThreatsPage } from './pages/threats.js';
import { VerifyPage } from './pages/verify.js';
import { FirewallPage } from './pages/firewall.js';

const NAV = [
  { href: '/', label: 'Network', pages: ['network'] },
  { href: '/threats', label: 'Threats', pages: ['threats'] },
  { href: '/rounds', label: 'Rounds', pages: ['rounds', 'round', 'miner'] },
  { href: '/leaderboard', label: 'Leaderboard', pages: ['leaderboard'] },
  { href: '/agents', label: 'Agents', pages: ['agents', 'agent'] },
  { href: '/verify', label: 'Verify', pages: ['verify'] },
  { href: '/artifacts', label: 'Artifact', pages: ['artifact'] },
  { href: '/firewall', label: 'Firewall', pages: ['firewall'] },
] as const;

/** The shield of favicon.svg, drawn inline: the browser already fetches the file once, as the tab's icon. */
function Logo() {
  return (
    <svg viewBox="0 0 32 32" width={24} height={24} aria-hidden="true" focusable="false">
      <path fill="#2563eb" d="M16 2 4 7v8c0 7.5 5.1 13.4 12 15 6.9-1.6 12-7.5 12-15V7z" />
      <path fill="#fff" d="m14 20.5-5-5 2.1-2.1 2.9 2.9 6.9-6.9L23 11.5z" />
    </svg>
  );
}

function Page({ route }: { route: Route }) {
  switch (route.page) {
    case 'network':
      return <NetworkPage />;
    case 'threats':
      return <ThreatsPage days={route.days} adjustedFrom={route.adjustedFrom} />;
    case 'rounds':
      return <RoundsPage />;
    case 'round':
      return <RoundPage roundId={route.roundId} />;
    case 'miner':
      return <MinerPage roundId={route.roundId} hotkey={route.hotkey} />;
    case 'leaderboard':
      return <LeaderboardPage track={route.track} />;
    case 'agents':
      return <AgentsPage track={route.track} />;
    case 'agent':
      return <AgentPage hotkey={route.hotkey} track={route.track} />;
    case 'verify':
      return <VerifyPage />;
    case 'artifact':
      return <ArtifactPage purl={route.purl} sha256={route.sha256} />;
    case 'firewall':
      return <FirewallPage days={route.days} />;
    case 'not_found':
      return (
        <>
          <PageHeading title="Page not found" />
          <p>
            The dashboard has no page at <code>{route.path}</code>. <a href="/">Go to the network overview</a>.
          </p>
        </>
      );
  }
}

export function App({ api }: { api: DashboardApi }) {
  const { pathname, search } = useLocation();
  const route = parseRoute(pathname, search);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => (root.current ? interceptLinkClicks(root.current) : undefined), []);
  return (
    <ApiContext.Provider value={api}>
      <div ref={root} class="shell">
        <a
          class="skip"
          href="#main"
          onClick={(event) => {
            // Focus, not just scroll: the next Tab starts inside the content. The address stays as it is.
            event.preventDefault();
            document.getElementById('main')?.focus();
          }}
        >
          Skip to content
        </a>
        <header class="top">
          <a class="brand" href="/">
            <Logo /> Vigil
          </a>
          <nav aria-label="Dashboard">
            <ul>
              {NAV.map((item) => (
                <li key={item.href}>
                  <a href={item.href} aria-current={(item.pages as readonly string[]).includes(route.page) ? 'page' : undefined}>
                    {item.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        </header>
        <main id="main" tabIndex={-1}>
          <Page key={pathname} route={route} />
        </main>
        <footer>
          <p>
            Times are in your time zone; hover one for UTC. Data from this server's API, refreshed no faster than its caches
            (docs/dashboard.md).
          </p>
        </footer>
      </div>
    </ApiContext.Provider>
  );
}
