// One server per process, so the load generator (the parent) and the server use different cores.
// `node serve.mjs hello` — a bare fastify hello-world, the baseline.
// `node serve.mjs vigil <dataDir>` — Vigil on the SQLite database in <dataDir>, rate limits raised.
// `node serve.mjs vigil-metrics <dataDir>` — the same with metrics on, as VIGIL_METRICS_PORT turns them on.
import Fastify from 'fastify';
import { buildApp, createRuntime, databaseInstrumentation, loadConfig, openDatabase } from '@vigil/server';

const [kind, dataDir] = process.argv.slice(2);
let app;
if (kind === 'hello') {
  app = Fastify({ logger: false });
  app.get('/', async () => ({ hello: 'world' }));
  // The same bare server answering a JSON body of a given size: separates what a body's size costs
  // from what Vigil's request handling costs.
  const sized = new Map();
  app.get('/sized/:bytes', async (request, reply) => {
    const bytes = Number(request.params.bytes);
    if (!sized.has(bytes)) sized.set(bytes, JSON.stringify({ pad: 'x'.repeat(Math.max(0, bytes - 10)) }));
    return reply.type('application/json; charset=utf-8').send(sized.get(bytes));
  });
} else if (kind === 'vigil' || kind === 'vigil-metrics') {
  const metrics = kind === 'vigil-metrics';
  const config = loadConfig({
    VIGIL_DATA_DIR: dataDir,
    // The benchmark measures throughput, not the per-IP budget all its requests would share.
    VIGIL_RATE_LIMIT_PER_MINUTE: '1000000000',
    VIGIL_ENDPOINT_RATE_LIMIT_PER_MINUTE: '1000000000',
    LOG_LEVEL: 'warn',
  });
  const database = await openDatabase({ dataDir: config.dataDir, ...(metrics ? { instrument: databaseInstrumentation } : {}) });
  // The production app: every feature (API keys, artifacts: bench/verify.mjs; repositories:
  // bench/repository-verify.mjs), each feature's hooks on its own routes only.
  const runtime = await createRuntime(config, { database, metrics });
  app = await buildApp(runtime);
  app.addHook('onClose', async () => {
    await runtime.close();
    await database.close();
  });
} else {
  console.error('usage: node serve.mjs hello | vigil <dataDir> | vigil-metrics <dataDir>');
  process.exit(2);
}
await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`LISTENING ${app.server.address().port}\n`);
process.on('SIGTERM', async () => {
  await app.close();
  process.exit(0);
});
