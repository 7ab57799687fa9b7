// SBOM verification: CycloneDX and SPDX documents verified like lockfiles, answered as JSON,
// CycloneDX VEX or SARIF (docs/sbom.md).
// The rest of the server imports this feature through this file only (docs/contributing.md).
export { sbomsRouteEntries as routes } from './sboms-route-entries.js';
