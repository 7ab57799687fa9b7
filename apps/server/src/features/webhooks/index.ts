// Webhooks: endpoints, deliveries, the events feed, and the worker that fans events out and sends
// them (docs/webhooks.md).
// The rest of the server imports this feature through this file only (docs/contributing.md).
export { type HostResolver } from './dispatch/address-policy.js';
export { createWebhookWorker, type CreateWebhookWorkerOptions, type WebhookWorker } from './dispatch/create-webhook-worker.js';
export { createWebhook } from './webhook-endpoints.js';
export { WEBHOOK_VARIABLES, type WebhookSettings, webhookSettingsFromEnv } from './webhook-settings.js';
export { webhooksWorkers as workers } from './webhooks-workers.js';
export { webhooksRouteEntries as routes } from './webhooks-route-entries.js';
