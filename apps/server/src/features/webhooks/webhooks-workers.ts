import type { WorkerEntry, WorkerHost } from '../../platform/jobs/background-worker.js';
import type { SecretBox } from '../../platform/secrets/secret-box.js';
import { createWebhookWorker } from './dispatch/create-webhook-worker.js';
import type { WebhookSettings } from './webhook-settings.js';

interface WebhooksWorkerHost extends WorkerHost {
  readonly config: { readonly webhooks: WebhookSettings };
  readonly secrets: SecretBox;
}

/** Webhook deliveries (docs/webhooks.md): `worker` always, `serve` unless VIGIL_WEBHOOK_WORKER=false. */
const webhookDeliveries: WorkerEntry<WebhooksWorkerHost> = (host, place) => {
  const { config } = host;
  if (place === 'serve' && !config.webhooks.runInServe) return undefined;
  const worker = createWebhookWorker({ db: host.database.db, secrets: host.secrets, settings: config.webhooks, logger: host.log, now: host.clock });
  return { name: 'webhooks', summary: `delivering webhooks (${worker.holderId})`, holderId: worker.holderId, start: () => worker.start(), stop: () => worker.stop() };
};

export const webhooksWorkers: readonly WorkerEntry<WebhooksWorkerHost>[] = [webhookDeliveries];
