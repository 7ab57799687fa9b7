import { ProxyTracerProvider, SpanKind, SpanStatusCode, trace, type Attributes, type Span, type Tracer, type TracerProvider } from '@opentelemetry/api';

/** The instrumentation scope of Vigil's spans (docs/operations.md, "Tracing"). */
export const TRACER_NAME = '@vigil/server';

/** What the API's provider delegates to while no SDK registered one. */
const NOOP_PROVIDER = new ProxyTracerProvider().getDelegate();
const tracers = new WeakMap<TracerProvider, Tracer>();

/**
 * Vigil's tracer, or null while no tracer provider is registered (an OpenTelemetry SDK preloaded
 * with `node --import`, docs/operations.md "Tracing"). With none, every instrumented place costs
 * this check (two property reads and a comparison): no span object, no context switch.
 */
export function activeTracer(): Tracer | null {
  const provider = trace.getTracerProvider() as TracerProvider & Partial<Pick<ProxyTracerProvider, 'getDelegate'>>;
  // The registered provider is the API's proxy delegating to the SDK's; the proxy of another copy
  // of the API (the SDK's own) is recognised by its method, not its class.
  const delegate = typeof provider.getDelegate === 'function' ? provider.getDelegate() : provider;
  if (delegate === NOOP_PROVIDER) return null;
  let tracer = tracers.get(delegate);
  if (tracer === undefined) {
    tracer = delegate.getTracer(TRACER_NAME);
    tracers.set(delegate, tracer);
  }
  return tracer;
}

/** Marks a span failed with the error that ended its work. */
export function recordFailure(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/**
 * Runs `work` inside a span named `name` (a child of the active span, e.g. the request's), ended
 * when the work settles and marked failed when it throws. With tracing off: `work()` and nothing
 * else (`attributes` is not even called).
 */
export function withSpan<T>(name: string, kind: SpanKind, attributes: () => Attributes, work: (span: Span | null) => Promise<T>): Promise<T> {
  const tracer = activeTracer();
  if (tracer === null) return work(null);
  return tracer.startActiveSpan(name, { kind, attributes: attributes() }, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      recordFailure(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

export { SpanKind, SpanStatusCode };

/** How long a shutdown waits for the SDK to export the spans it still holds. */
export const TRACING_FLUSH_MS = 5_000;

/**
 * Exports the spans a registered SDK still buffers (a BatchSpanProcessor holds them for seconds),
 * before `serve` or `worker` exits on SIGTERM; bounded, so a collector that is down cannot hold
 * the shutdown. Nothing to do without a provider.
 */
export async function flushTracing(timeoutMs = TRACING_FLUSH_MS): Promise<void> {
  const provider = trace.getTracerProvider() as TracerProvider & Partial<Pick<ProxyTracerProvider, 'getDelegate'>>;
  const delegate = (typeof provider.getDelegate === 'function' ? provider.getDelegate() : provider) as TracerProvider & { forceFlush?: () => Promise<void> };
  if (delegate === NOOP_PROVIDER || typeof delegate.forceFlush !== 'function') return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([delegate.forceFlush().catch(() => {}), new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
  clearTimeout(timer);
}
