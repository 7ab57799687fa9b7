import type { PagePromise } from './pagination.js';
import { Admin } from './resources/admin.js';
import { Artifacts } from './resources/artifacts.js';
import { Attestations } from './resources/attestations.js';
import { Events } from './resources/events.js';
import { Log } from './resources/log.js';
import { AccountResource, Keys } from './resources/keys.js';
import { Policies } from './resources/policies.js';
import { Agents, LeaderboardResource, Network, Rounds, Trends } from './resources/public-reads.js';
import { Repositories } from './resources/repositories.js';
import { Sboms } from './resources/sboms.js';
import { Watches } from './resources/watches.js';
import { FirewallResource } from './resources/firewall.js';
import { Webhooks } from './resources/webhooks.js';
import { searchWith } from './resources/search.js';
import type { SearchParams, SearchResultItem } from './resources/search.js';
import { Transport } from './transport.js';
import type { PageOptions, VigilOptions } from './transport.js';

/**
 * The Vigil SDK (docs/client.md): every customer, public and admin endpoint as a typed method, in
 * resource namespaces. Answers are parsed with @vigil/core's schemas, timestamps as `Date`.
 *
 * ```ts
 * const vigil = new Vigil({ baseUrl: 'https://api.vigil.example', apiKey: process.env.VIGIL_API_KEY! });
 * const result = await vigil.artifacts.verify('pkg:npm/left-pad@1.3.0');
 * ```
 */
export class Vigil {
  readonly baseUrl: string;
  readonly artifacts: Artifacts;
  readonly attestations: Attestations;
  readonly keys: Keys;
  readonly account: AccountResource;
  readonly policies: Policies;
  readonly repositories: Repositories;
  readonly sboms: Sboms;
  readonly network: Network;
  readonly trends: Trends;
  readonly rounds: Rounds;
  readonly leaderboard: LeaderboardResource;
  readonly agents: Agents;
  readonly admin: Admin;
  readonly webhooks: Webhooks;
  readonly watches: Watches;
  /** The registry firewall's decision counts (docs/firewall.md). */
  readonly firewall: FirewallResource;
  readonly events: Events;
  readonly log: Log;
  /** `GET /v1/search`: artifacts and attestations matching every word of `q`, best first (paginated). */
  readonly search: (params: SearchParams, options?: PageOptions) => PagePromise<SearchResultItem>;

  constructor(options: VigilOptions) {
    const transport = new Transport(options);
    this.baseUrl = transport.baseUrl;
    this.network = new Network(transport);
    this.trends = new Trends(transport);
    this.rounds = new Rounds(transport);
    this.leaderboard = new LeaderboardResource(transport);
    this.agents = new Agents(transport);
    this.artifacts = new Artifacts(transport);
    this.attestations = new Attestations(transport, this.network);
    this.keys = new Keys(transport);
    this.account = new AccountResource(transport);
    this.policies = new Policies(transport);
    this.repositories = new Repositories(transport);
    this.sboms = new Sboms(transport);
    this.admin = new Admin(transport);
    this.webhooks = new Webhooks(transport);
    this.watches = new Watches(transport);
    this.firewall = new FirewallResource(transport);
    this.events = new Events(transport);
    this.log = new Log(transport);
    this.search = searchWith(transport);
  }

  /** A client without a token, for the public reads only (`apiKey: null`); other calls answer 401. */
  static public(options: Omit<VigilOptions, 'apiKey'>): Vigil {
    return new Vigil({ ...options, apiKey: null });
  }
}
