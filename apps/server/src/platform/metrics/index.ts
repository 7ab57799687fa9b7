// Prometheus metrics and the metrics listener (docs/operations.md).
export { countRedisFailure, countRefusedBeforeRouting, countWebhookAttempt, dbPoolAcquireDuration, dbQueryDuration, metricsRegistry, registryFetchAttempts, verifyCacheLookups, watchPool, type RedisUse } from './metrics.js';
export { METRIC_COUNT_CAP } from './database-gauges.js';
export { httpMetricsPlugin } from './http-metrics-plugin.js';
export { startMetricsServer, type MetricsServer } from './metrics-server.js';
export { METRICS_VARIABLES, metricsSettingsFromEnv, type MetricsSettings } from './metrics-settings.js';
export { databaseInstrumentation } from './database-instrumentation.js';
