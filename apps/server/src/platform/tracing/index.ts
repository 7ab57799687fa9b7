export { activeTracer, flushTracing, recordFailure, SpanKind, SpanStatusCode, TRACER_NAME, TRACING_FLUSH_MS, withSpan } from './tracer.js';
export { tracingPlugin } from './tracing-plugin.js';
