export { advanceRounds, type AdvanceRoundsOptions, type RoundAction, type RoundTransition } from './advance-rounds.js';
export {
  ROUND_SCHEDULER_LOCK,
  createScheduler,
  type CreateSchedulerOptions,
  type Scheduler,
  type SchedulerLogger,
  type SchedulerStep,
} from './create-scheduler.js';
export { selectRoundArtifacts, type RoundArtifactSelection } from './select-round-artifacts.js';
export {
  DEFAULT_SCHEDULER_SETTINGS,
  SCHEDULER_VARIABLES,
  schedulerSettingsFromEnv,
  type SchedulerSettings,
} from './settings.js';
export { ADVISORY_LOCK_NAMESPACE, runExclusively, type ExclusiveRun, type RunExclusivelyOptions } from './single-runner.js';
