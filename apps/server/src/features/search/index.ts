// Search: /v1/search and the rebuild of the index artifacts and attestations write (docs/search.md).
// The rest of the server imports this feature through this file only (docs/contributing.md).
export { reindexSearch, reindexSearchIfNeeded } from './reindex-search.js';
export { searchCommands as commands } from './search-commands.js';
export { searchRouteEntries as routes } from './search-route-entries.js';
