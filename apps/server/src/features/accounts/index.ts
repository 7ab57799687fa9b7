// Accounts and their API keys: the key check every customer route runs behind, idempotency, the
// account's own key routes and the operator's keys command (docs/accounts.md, docs/idempotency.md).
// The rest of the server imports this feature through this file only (docs/contributing.md).
export { type KeyPrincipal } from './accounts.js';
export { apiKeyPlugin } from './api-key-plugin.js';
export { idempotencyPlugin } from './idempotency/idempotency-plugin.js';
export { actorOf, type KeyRoutesOptions, principalOf, showsFindings } from './key-routes.js';
export { runKeysCommand } from './keys-command.js';
export { ADMIN, ADMIN_CHANGE } from './admin-route-config.js';
export { accountsCommands as commands } from './accounts-commands.js';
export { accountsRouteEntries as routes } from './accounts-route-entries.js';
