// The registry firewall's server side (docs/firewall.md): decision counts per account and the
// operator's `vigil-server firewall` command, which bin.ts runs without loading the rest of the
// server: so the feature exports no `commands` for main.ts.
export { runFirewallCommand } from './firewall-command.js';
export { FirewallCommandError, readFirewallFlags } from './firewall-flags.js';
export { firewallRouteEntries as routes } from './firewall-route-entries.js';
