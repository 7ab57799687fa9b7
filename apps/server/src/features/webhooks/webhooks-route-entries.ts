import type { RouteEntry, RouteHost } from '../../platform/http/route-entry.js';
import type { SecretBox } from '../../platform/secrets/secret-box.js';
import type { HostResolver } from './dispatch/address-policy.js';
import { webhookAdminRoutes } from './webhook-admin-routes.js';
import { webhookRoutes } from './webhook-routes.js';
import type { WebhookSettings } from './webhook-settings.js';

interface WebhooksRouteHost extends RouteHost {
  readonly config: { readonly webhooks: WebhookSettings };
  readonly secrets: SecretBox;
  /** How endpoint host names resolve for the URL check; absent, the system resolver. */
  readonly webhookResolver: HostResolver | undefined;
}

/** Webhook endpoints, deliveries and the events feed (customer scope); the admin API's delivery backlog. */
export const webhooksRouteEntries: readonly RouteEntry<WebhooksRouteHost>[] = [
  {
    scope: 'customer',
    register: async (app, host) => {
      await app.register(webhookRoutes, {
        db: host.database.db,
        secrets: host.secrets,
        clock: host.clock,
        settings: host.config.webhooks,
        ...(host.webhookResolver ? { resolver: host.webhookResolver } : {}),
      });
    },
  },
  {
    scope: 'admin',
    register: async (app, { database }) => {
      await app.register(webhookAdminRoutes, { db: database.db });
    },
  },
];
