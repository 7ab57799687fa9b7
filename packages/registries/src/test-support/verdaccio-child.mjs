// Runs one Verdaccio in its own process (so a test can kill it, and the bench measures a registry
// that does not share the connector's event loop). The parent passes the config as JSON in argv
// and gets the port back over IPC.
import process from 'node:process';
import { runServer } from 'verdaccio';

const config = JSON.parse(process.argv[2]);
const app = await runServer(config);
app.listen(0, '127.0.0.1', () => {
  process.send({ port: app.address().port });
});
process.on('disconnect', () => process.exit(0));
