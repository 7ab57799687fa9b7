// Readiness (docs/operations.md, "Probes"): the check and GET /v1/ready.
export { checkReadiness, DEFAULT_READINESS_TIMEOUT_MS, sharedReadinessCheck, type Readiness } from './check-readiness.js';
export { readinessRouteEntries as routes } from './readiness-route-entries.js';
