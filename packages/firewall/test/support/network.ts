/**
 * The real pieces the firewall's suites run against: a Verdaccio upstream holding packages the test
 * publishes with the real npm, and a real Vigil server (the built `vigil-server`, demo data, whose
 * closed rounds have winners) that fetches from that Verdaccio on demand. Verdicts are made the way
 * the network makes them: the server fetches the version, three validators of the test's own
 * claim the fast tasks of its artifact and attest, and the server publishes the verdict
 * (docs/rounds.md "Verdicts between rounds"). Nothing here answers for Vigil.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignedVigilClient, Vigil, keypairFromSeed, type VigilKeypair } from '@vigil/client';
import { AttestationReceipt, TaskClaim, ValidatorRegistration, formatOffsetTimestamp, type AttestationPayload, type MetagraphSnapshot } from '@vigil/core';
import { signAttestation } from '@vigil/crypto';
import { startPypiStandIn, writePypiProject, type PypiStandIn } from '../../../registries/src/test-support/pypi-stand-in.js';
import { startVerdaccio, writePackage, type Verdaccio } from '../../../registries/src/test-support/verdaccio.js';
import { zipOf } from '../../../registries/src/test-support/zip.js';
import { startVigilServer, type VigilServer } from '../../../../test-support/vigil-server.js';

export { serverBuilt } from '../../../../test-support/vigil-server.js';

const VALIDATORS: VigilKeypair[] = ['f1', 'f2', 'f3'].map((b) => keypairFromSeed(b.repeat(32)));

export interface Network {
  verdaccio: Verdaccio;
  /** The PyPI stand-in (simple API, PEP 691 JSON and PEP 503 HTML); its simple index is `${pypi.url}/simple`. */
  pypi: PypiStandIn;
  server: VigilServer;
  vigil: Vigil;
  dir: string;
  /** Publishes `name@version` (a small package with one file) to Verdaccio with the real npm. */
  publish(name: string, version: string): Promise<void>;
  /** Writes a PyPI project with one pure-Python wheel per version (a real wheel pip installs); the wheels' file names. */
  publishPypi(name: string, versions: string[]): Promise<Record<string, string>>;
  /** The upstream's `dist.integrity` of a version. */
  integrity(name: string, version: string): Promise<string>;
  /** Has the server fetch each version, then has the validators attest the given verdicts; resolves once every one is published. */
  judge(verdicts: Record<string, 'ALLOW' | 'WARN' | 'BLOCK'>): Promise<void>;
  /** Waits until the server has fetched and stored a version (its fetch `queued_for_evaluation`); its sha256. */
  fetched(reference: string): Promise<string>;
  stop(): Promise<void>;
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 120_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export async function startNetwork(): Promise<Network> {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-firewall-'));
  const verdaccio = await startVerdaccio();
  const pypiRoot = mkdtempSync(join(tmpdir(), 'vigil-firewall-pypi-'));
  const pypi = await startPypiStandIn(pypiRoot);
  const server = await startVigilServer({ env: { VIGIL_REGISTRY_FETCH: 'true', VIGIL_NPM_REGISTRY_URL: verdaccio.url, VIGIL_PYPI_URL: pypi.url, VIGIL_REGISTRY_POLL_S: '1' } });
  const vigil = new Vigil({ baseUrl: server.baseUrl, apiKey: server.paidKey });
  // Three validators of our own, with permits, registered: enough for a fast task's quorum.
  const snapshot = server.metagraph() as MetagraphSnapshot;
  snapshot.neurons.push(...VALIDATORS.map((v, i) => ({ uid: 240 + i, hotkey: v.hotkey, validator_permit: true })));
  await vigil.admin.metagraph.upload(snapshot);
  for (const v of VALIDATORS) {
    await new SignedVigilClient({ baseUrl: server.baseUrl, keypair: v }).request('POST', '/v1/validators/registration', { allowed_ips: ['127.0.0.1'] }, { schema: ValidatorRegistration });
  }

  const fetched = (reference: string) =>
    until(`${reference} fetched by the server`, async () => {
      const r = await vigil.artifacts.verify(reference);
      if (r.fetch?.state === 'failed') throw new Error(`${reference}: fetch failed: ${r.fetch.reason}`);
      return r.sha256 ?? undefined;
    });

  return {
    verdaccio,
    pypi,
    server,
    vigil,
    dir,
    publish: async (name, version) => {
      const pkg = await writePackage(join(dir, 'src', `${name}-${version}`), { name, version, main: 'index.js', license: 'MIT' }, { 'index.js': `module.exports = ${JSON.stringify(`${name}@${version}`)};\n` });
      await verdaccio.publish(pkg);
    },
    publishPypi: async (name, versions) => {
      const module = name.replace(/[-.]/g, '_');
      const names: Record<string, string> = {};
      const files: Record<string, Record<string, Buffer>> = {};
      for (const version of versions) {
        const info = `${module}-${version}.dist-info`;
        const filename = `${module}-${version}-py3-none-any.whl`;
        names[version] = filename;
        files[version] = {
          [filename]: zipOf({
            [`${module}/__init__.py`]: `VERSION = ${JSON.stringify(version)}\n`,
            [`${info}/METADATA`]: `Metadata-Version: 2.1\nName: ${name}\nVersion: ${version}\n\nA package of the firewall's tests.\n`,
            [`${info}/WHEEL`]: 'Wheel-Version: 1.0\nGenerator: vigil-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n',
            [`${info}/RECORD`]: `${module}/__init__.py,,\n${info}/METADATA,,\n${info}/WHEEL,,\n${info}/RECORD,,\n`,
          }),
        };
      }
      await writePypiProject(pypiRoot, { name, files });
      return names;
    },
    integrity: async (name, version) => {
      const doc = (await (await fetch(`${verdaccio.url}/${name.replace('/', '%2f')}`)).json()) as { versions: Record<string, { dist: { integrity: string } }> };
      return doc.versions[version]!.dist.integrity;
    },
    fetched,
    judge: async (verdicts) => {
      const bySha = new Map<string, 'ALLOW' | 'WARN' | 'BLOCK'>();
      for (const [reference, verdict] of Object.entries(verdicts)) bySha.set(await fetched(reference), verdict);
      for (const validator of VALIDATORS) {
        const client = new SignedVigilClient({ baseUrl: server.baseUrl, keypair: validator });
        const claim = await client.request('POST', '/v1/validators/tasks/claim', { track: 'packages', max: 100 }, { schema: TaskClaim });
        for (const task of claim.tasks) {
          const verdict = bySha.get(task.artifact.sha256);
          if (verdict === undefined) continue;
          await client.download(`/v1/validators/artifacts/${task.artifact.sha256}`);
          const payload: AttestationPayload = {
            round_id: claim.round!.round_id,
            task_id: task.task_id,
            track: 'packages',
            miner_hotkey: task.miner_hotkey,
            agent_hash: task.agent_hash,
            artifact: task.artifact,
            verdict,
            risk_score: verdict === 'BLOCK' ? 91 : verdict === 'WARN' ? 55 : 3,
            findings:
              verdict === 'ALLOW' ? [] : [{ type: 'static', category: 'install_script', severity: verdict === 'BLOCK' ? 'CRIT' : 'MED', title: 'pipes a download to a shell', file: 'package/package.json' }],
            policy_version: claim.round!.policy_version,
            validator_hotkey: validator.hotkey,
            created_at: formatOffsetTimestamp(Date.now()),
          };
          await client.request('POST', '/v1/validators/attestations', signAttestation(payload, validator.secretKey), { schema: AttestationReceipt });
        }
      }
      for (const [reference, verdict] of Object.entries(verdicts)) {
        await until(`${reference} decided ${verdict}`, async () => {
          const r = await vigil.artifacts.verify(reference);
          return r.state === 'decided' ? (r.verdict === verdict ? true : Promise.reject(new Error(`${reference}: decided ${r.verdict}, not ${verdict}`))) : undefined;
        });
      }
    },
    stop: async () => {
      await server.stop();
      await verdaccio.stop();
      await pypi.close();
    },
  };
}

/** Writes a project directory with a package.json and an .npmrc of its own. */
export function project(dir: string, name: string, dependencies: Record<string, string> = {}): string {
  const root = mkdtempSync(join(dir, `${name}-`));
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name, version: '1.0.0', private: true, dependencies }, null, 2));
  return root;
}
