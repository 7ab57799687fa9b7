import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type VigilDatabase } from '../../../../platform/db/database.js';
import { migrateToLatest } from '../../../../platform/db/migrate.js';
import { HOUR, T0 } from '../../../../test-support/fixtures.js';
import { createScheduler, type SchedulerLogger, type SchedulerStep } from './create-scheduler.js';
import type { SchedulerSettings } from './settings.js';

const SETTINGS: SchedulerSettings = {
  submissionMs: HOUR,
  evaluationMs: HOUR,
  gapMs: 0,
  intervalMs: 10,
  policyVersion: 'policy-test-1',
  labeledArtifacts: 1,
  liveArtifacts: 1,
};

describe('createScheduler', () => {
  let database: VigilDatabase;
  beforeEach(async () => {
    database = await openDatabase({ url: ':memory:' });
    await migrateToLatest(database.db);
  });
  afterEach(async () => {
    await database.close();
  });

  it('steps at start and on every interval, logs transitions, and stops after the step in flight', async () => {
    let clock = T0;
    const steps: SchedulerStep[] = [];
    const logged: string[] = [];
    const logger: SchedulerLogger = { info: (_obj, msg) => logged.push(msg), error: (_obj, msg) => logged.push(msg) };
    const scheduler = createScheduler({
      db: database.db,
      settings: SETTINGS,
      now: () => clock,
      logger,
      onStep: (step) => {
        steps.push(step);
        clock += HOUR; // each tick moves the round on by one phase
      },
    });
    scheduler.start();
    scheduler.start(); // idempotent: still one timer
    await vi.waitFor(() => expect(steps.length).toBeGreaterThanOrEqual(3), { timeout: 5000, interval: 5 });
    await scheduler.stop();
    const stoppedAt = steps.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(steps.length).toBe(stoppedAt);
    const actions = steps.slice(0, 3).map((s) => s.transitions.map((t) => t.action));
    expect(actions).toEqual([Array(4).fill('opened'), Array(4).fill('evaluation_started'), Array(4).fill('closed')]);
    expect(logged).toContain('round scheduler: skills round 1 opened');
    expect(logged).toContain('round scheduler: skills round 1 closed');
  });

  it('joins a step already in flight instead of running a second one', async () => {
    const scheduler = createScheduler({ db: database.db, settings: SETTINGS, now: () => T0 });
    const [a, b] = [scheduler.step(), scheduler.step()];
    expect(a).toBe(b);
    expect((await a).transitions).toHaveLength(4);
    expect((await scheduler.step()).transitions).toEqual([]);
  });
});
