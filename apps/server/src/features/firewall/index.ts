// The registry firewall's server side (docs/firewall.md): decision counts per account and the
// operator's `vigil-server firewall` command.
export { runFirewallCommand } from './firewall-command.js';
export { FirewallCommandError, readFirewallFlags } from './firewall-flags.js';
export { firewallCommands as commands } from './firewall-commands.js';
export { firewallRouteEntries as routes } from './firewall-route-entries.js';
