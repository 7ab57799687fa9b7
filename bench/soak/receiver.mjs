// A flaky webhook receiver: answers some deliveries 500, drops some connections without an answer,
// and acknowledges the rest with 202. Its ledger is what the invariants hold against the outbox.
import http from 'node:http';

export async function startFlakyReceiver({ failRate = 0.1, dropRate = 0.05 } = {}) {
  const ledger = []; // { delivery, event, type, at, answered: status | 'dropped' }
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const server = http.createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      let event = null;
      try {
        event = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        // Not an event: noted without an id (the invariants then find its event missing).
      }
      const entry = { delivery: request.headers['x-vigil-delivery'], event: event?.id, type: event?.type, at: Date.now() };
      const roll = random();
      if (roll < dropRate) {
        entry.answered = 'dropped';
        ledger.push(entry);
        request.socket.destroy();
        return;
      }
      entry.answered = roll < dropRate + failRate ? 500 : 202;
      ledger.push(entry);
      response.writeHead(entry.answered, { 'content-type': 'text/plain' }).end(entry.answered === 202 ? 'ok' : 'flaky');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/hook`,
    ledger,
    /** Stops failing: the drain at the end must be able to finish. */
    heal() {
      failRate = 0;
      dropRate = 0;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}
