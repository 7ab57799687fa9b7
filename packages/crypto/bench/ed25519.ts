// ed25519 throughput, native (node:crypto) against portable (@noble/ed25519) in the same run.
// Run: npm run bench (compiles with tsconfig.bench.json, then runs against the built package).
import { nativeEd25519, portableEd25519, sign, verify, getPublicKey, type Ed25519 } from '@vigil/crypto';

const seconds = Number(process.env.BENCH_SECONDS ?? '1');
const secretKey = Uint8Array.from({ length: 32 }, (_, i) => i);
const publicKey = getPublicKey(secretKey);
// About the size of a signed-request message (domain, method, path, timestamp, body hash).
const message = new TextEncoder().encode(`vigil-request-v1\nPOST\n/v1/validators/results?round_id=5f2c9a1e\n1767225600\n${'ab'.repeat(32)}`);
const signature = sign(message, secretKey);

function opsPerSecond(run: () => unknown): number {
  for (let i = 0; i < 50; i++) run();
  let ops = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  while (performance.now() < end) {
    for (let i = 0; i < 20; i++) run();
    ops += 20;
  }
  return ops / ((performance.now() - start) / 1000);
}

function measure(impl: Ed25519): { verify: number; sign: number } {
  if (!impl.verify(signature, message, publicKey)) throw new Error(`${impl.name} does not verify the benchmark signature`);
  return {
    verify: opsPerSecond(() => impl.verify(signature, message, publicKey)),
    sign: opsPerSecond(() => impl.sign(message, secretKey)),
  };
}

const portable = measure(portableEd25519);
const native = measure(nativeEd25519);
const defaultVerify = opsPerSecond(() => verify(signature, message, publicKey));

const format = (n: number) => Math.round(n).toLocaleString('en-US').padStart(10);
console.log(`ed25519, ${message.length}-byte message, ${seconds} s per measurement (Node ${process.version})`);
console.log(`                 verify/s     sign/s`);
console.log(`portable       ${format(portable.verify)} ${format(portable.sign)}   (baseline)`);
console.log(`native         ${format(native.verify)} ${format(native.sign)}`);
console.log(`default verify ${format(defaultVerify)}`);
console.log(`native/portable: verify ×${(native.verify / portable.verify).toFixed(1)}, sign ×${(native.sign / portable.sign).toFixed(1)}`);
