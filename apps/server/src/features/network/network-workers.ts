import type { WorkerEntry, WorkerHost } from '../../platform/jobs/background-worker.js';
import { createScheduler } from './rounds/scheduler/index.js';
import type { SchedulerSettings } from './rounds/scheduler/settings.js';

interface NetworkWorkerHost extends WorkerHost {
  readonly config: { readonly runScheduler: boolean; readonly scheduler: SchedulerSettings };
}

/** The round scheduler (docs/rounds.md): `worker` always, `serve` unless VIGIL_SCHEDULER=false. */
const roundScheduler: WorkerEntry<NetworkWorkerHost> = (host, place) => {
  const { config } = host;
  if (place === 'serve' && !config.runScheduler) return undefined;
  const scheduler = createScheduler({ db: host.database.db, settings: config.scheduler, logger: host.log, now: host.clock });
  return {
    name: 'scheduler',
    summary: `advancing rounds every ${config.scheduler.intervalMs / 1000} s`,
    holderId: scheduler.holderId,
    start: () => scheduler.start(),
    stop: () => scheduler.stop(),
  };
};

export const networkWorkers: readonly WorkerEntry<NetworkWorkerHost>[] = [roundScheduler];
