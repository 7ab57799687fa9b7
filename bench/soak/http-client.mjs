// HTTP/1.1 requests from a chosen 127.x source address (loopback only), keep-alive per address, with
// a hard client-side deadline: what a public reader, a customer or a probe sends through nginx.
import http from 'node:http';

const agents = new Map();
function agentFor(localAddress) {
  let agent = agents.get(localAddress);
  if (!agent) {
    agent = new http.Agent({ keepAlive: true, maxSockets: 8, localAddress });
    agents.set(localAddress, agent);
  }
  return agent;
}

/**
 * Resolves `{ status, body, ms, headers }`; status 0 when no answer came (`error` says why, `timedOut`
 * when the deadline passed). Never rejects.
 */
export function send(baseUrl, { from = '127.0.0.1', method = 'GET', path, headers = {}, body, timeoutMs = 15_000 }) {
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    const done = (result) => {
      if (settled) return;
      settled = true;
      resolve({ ms: performance.now() - started, ...result });
    };
    const payload = body === undefined ? undefined : Buffer.isBuffer(body) || body instanceof Uint8Array ? body : Buffer.from(JSON.stringify(body));
    const request = http.request(`${baseUrl}${path}`, {
      method,
      agent: agentFor(from),
      headers: {
        ...(payload !== undefined && !headers['content-type'] ? { 'content-type': 'application/json' } : {}),
        ...(payload !== undefined ? { 'content-length': payload.length } : {}),
        ...headers,
      },
    });
    const timer = setTimeout(() => {
      request.destroy(new Error('client deadline'));
      done({ status: 0, body: null, error: `no answer within ${timeoutMs} ms`, timedOut: true });
    }, timeoutMs);
    request.on('response', (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed = text;
        try {
          parsed = text.length > 0 ? JSON.parse(text) : null;
        } catch {
          // Not JSON (nginx's own error pages): kept as text.
        }
        done({ status: response.statusCode, body: parsed, headers: response.headers });
      });
      response.on('error', (error) => {
        clearTimeout(timer);
        done({ status: 0, body: null, error: error.message });
      });
    });
    request.on('error', (error) => {
      clearTimeout(timer);
      done({ status: 0, body: null, error: error.code ?? error.message });
    });
    request.end(payload);
  });
}

export function closeAgents() {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}

/** A short account of a failed answer: the server's `detail`, or that nginx answered, or why none came. */
export function describeAnswer(r) {
  if (r.error) return r.error;
  if (typeof r.body === 'string' && r.body.includes('nginx')) return `${r.status} from nginx`;
  return `${r.status} ${r.body?.detail ?? ''}`.trim();
}
