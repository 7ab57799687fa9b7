import { lstat, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { keypairFromSeed } from '@vigil/client';
import { AGENT_BUNDLE_FORMAT, AttestationSubmission, Sha256Hash, TRACKS, type AgentSubmissionRequest, type Track } from '@vigil/core';
import { generateSecretKey, toHex } from '@vigil/crypto';
import { Option, type Command } from 'commander';
import { action, examples, type Kit } from '../command-kit.js';
import { defaultKeyfile, keyfileOf } from '../keyfile.js';
import { choiceArg, readJson } from '../context.js';
import { CliError, UsageError } from '../exit-codes.js';
import { when } from '../output.js';
import { trackOption } from './public-reads.js';
import { registerValidatorRun } from './validator-run.js';

const keyfileOption = '--keyfile <file>';
const keyfileHelp = 'the hotkey file (from vigil keygen, or an ed25519 Bittensor keyfile); default VIGIL_KEYFILE';

interface BundleFile {
  path: string;
  content_base64: string;
  mode: '0644' | '0755';
}

// Version control data and installed dependencies are not the agent's code.
const BUNDLE_SKIPPED = new Set(['.git', '.hg', '.svn', 'node_modules', '__pycache__', '.venv', '.DS_Store']);

/** The files of an agent directory as a `vigil-agent-bundle/1` (docs/protocol.md, "Agent bundle format"). */
export async function bundleOf(dir: string, entrypoint: string): Promise<{ format: string; entrypoint: string; files: BundleFile[] }> {
  const root = resolve(dir);
  const info = await lstat(root).catch(() => null);
  if (!info?.isDirectory()) throw new CliError(`dir: ${dir} is not a directory`);
  const files: BundleFile[] = [];
  const walk = async (current: string): Promise<void> => {
    for (const entry of await readdir(current, { withFileTypes: true })) {
      if (BUNDLE_SKIPPED.has(entry.name)) continue;
      const full = join(current, entry.name);
      const path = relative(root, full).split(sep).join('/');
      if (entry.isSymbolicLink()) throw new CliError(`dir: ${path} is a symbolic link; a bundle holds regular files only`);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) {
        const mode = (await lstat(full)).mode & 0o111 ? '0755' : '0644';
        files.push({ path, content_base64: (await readFile(full)).toString('base64'), mode });
      }
    }
  };
  await walk(root);
  if (files.length === 0) throw new CliError(`dir: ${dir} holds no file`);
  if (!files.some((f) => f.path === entrypoint)) throw new UsageError(`--entrypoint: ${entrypoint} is not a file of ${dir}`);
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { format: AGENT_BUNDLE_FORMAT, entrypoint, files };
}

/** keygen, and the signed miner and validator calls (docs/protocol.md). */
export function registerOperator(program: Command, kit: Kit): void {
  examples(
    program
      .command('keygen')
      .description('a new ed25519 hotkey: writes its keyfile (mode 0600) and prints its ss58 address')
      .option('--out <file>', 'where to write the keyfile (default <config dir>/hotkey.json)')
      .option('--force', 'replace an existing file')
      .action(
        action(kit, async (ctx, opts: { out?: string; force?: boolean }) => {
          const path = opts.out ?? defaultKeyfile(ctx);
          const seed = generateSecretKey();
          const keypair = keypairFromSeed(seed);
          const publicHex = `0x${toHex(keypair.publicKey)}`;
          // The fields of an unencrypted Bittensor keyfile (docs/client.md, "The keyfile format").
          const keyfile = { accountId: publicHex, publicKey: publicHex, privateKey: null, secretPhrase: null, secretSeed: `0x${toHex(seed)}`, ss58Address: keypair.hotkey };
          await mkdir(dirname(path), { recursive: true, mode: 0o700 });
          try {
            await writeFile(path, `${JSON.stringify(keyfile, null, 2)}\n`, { mode: 0o600, flag: opts.force ? 'w' : 'wx' });
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new CliError(`${path} exists: pass --force to replace it (the key in it is lost)`);
            throw new CliError(`cannot write ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
          }
          ctx.emit(() => {
            ctx.out.line(keypair.hotkey);
            ctx.out.note(`Wrote the keyfile of ${keypair.hotkey} to ${path} (mode 0600). Register this ss58 address on netuid 76 as an ed25519 key; keep the file secret.`);
          }, { hotkey: keypair.hotkey, public_key: publicHex, keyfile: path });
        }),
      ),
    ['vigil keygen', 'vigil keygen --out ./miner-hotkey.json'],
  );

  const miner = program.command('miner').description('miner calls, signed with the hotkey: register, submit an agent, read it, delete it');
  examples(
    miner
      .command('register')
      .description('registers the hotkey on a track (POST /v1/miners/registrations)')
      .addOption(trackOption().makeOptionMandatory())
      .option(keyfileOption, keyfileHelp)
      .action(
        action(kit, async (ctx, opts: { track: Track; keyfile?: string }) => {
          const client = await ctx.signed(keyfileOf(ctx, opts.keyfile));
          const r = await client.miners.register({ track: opts.track });
          ctx.emit(() => ctx.out.line(`${r.hotkey} is ${r.status} on ${r.track} since ${when(r.registered_at)}.`));
        }),
      ),
    ['vigil miner register --track skills'],
  );
  examples(
    miner
      .command('deregister')
      .description('leaves a track: the agent no longer enters rounds (DELETE /v1/miners/registrations/{track})')
      .addOption(trackOption().makeOptionMandatory())
      .option(keyfileOption, keyfileHelp)
      .action(
        action(kit, async (ctx, opts: { track: Track; keyfile?: string }) => {
          const client = await ctx.signed(keyfileOf(ctx, opts.keyfile));
          await client.miners.deregister(opts.track);
          ctx.emit(() => ctx.out.line(`${client.hotkey} left ${opts.track}.`), { hotkey: client.hotkey, track: opts.track, deregistered: true });
        }),
      ),
    ['vigil miner deregister --track skills'],
  );
  examples(
    miner
      .command('submit [dir]')
      .description("submits the files of a directory, or a reference agent's bundle, as the hotkey's agent on a track (POST /v1/miners/agents)")
      .addOption(trackOption())
      .option('--name <name>', "the agent's name (1-64 characters); default vigil-reference-<track> with --reference")
      .option('--provider <provider>', 'free text, e.g. the model provider the agent calls (1-64 characters); default vigil with --reference')
      .option('--entrypoint <path>', 'the file the track runs, relative to dir', 'agent.py')
      .addOption(new Option('--reference <track>', "submit the built bundle of Vigil's reference agent of this track instead of a directory").argParser(choiceArg('--reference', TRACKS)))
      .option(keyfileOption, keyfileHelp)
      .action(
        action(kit, async (ctx, dir: string | undefined, opts: { track?: Track; name?: string; provider?: string; entrypoint: string; reference?: Track; keyfile?: string }) => {
          if (opts.reference !== undefined && dir !== undefined) throw new UsageError('<dir>: not with --reference (the bundle is the reference agent)');
          if (opts.reference === undefined && dir === undefined) throw new UsageError('<dir>: required (or --reference <track>)');
          if (opts.reference !== undefined && opts.track !== undefined && opts.track !== opts.reference) throw new UsageError(`--track: ${opts.track} is not the track of --reference ${opts.reference}`);
          const track = opts.track ?? opts.reference;
          if (track === undefined) throw new UsageError('--track: required');
          const name = opts.name ?? (opts.reference !== undefined ? `vigil-reference-${opts.reference}` : undefined);
          const provider = opts.provider ?? (opts.reference !== undefined ? 'vigil' : undefined);
          if (name === undefined) throw new UsageError('--name: required');
          if (provider === undefined) throw new UsageError('--provider: required');
          const client = await ctx.signed(keyfileOf(ctx, opts.keyfile));
          let bundle: { format: string; entrypoint: string; files: unknown[] };
          if (opts.reference !== undefined) {
            // Imported here: @vigil/reference-agents stays off the start-up of every other command (src/commands/scan.ts).
            const { referenceAgentBundle } = await import('@vigil/reference-agents');
            try {
              bundle = await referenceAgentBundle(opts.reference);
            } catch (err) {
              throw new CliError((err as Error).message);
            }
          } else bundle = await bundleOf(dir!, opts.entrypoint);
          const agent = await ctx.withProgress(`submitting ${bundle.files.length} files from ${opts.reference !== undefined ? `the ${opts.reference} reference agent` : dir}`, () =>
            // The bundle is read loosely here and checked by the server (422 naming the file at fault).
            client.miners.submitAgent({ track, name, provider, bundle: bundle as AgentSubmissionRequest['bundle'] }),
          );
          ctx.emit(() =>
            ctx.out.fields([
              ['agent', `${agent.name} v${agent.version} (${agent.status})`],
              ['track', agent.track],
              ['agent hash', agent.agent_hash],
              ['files', bundle.files.length],
              ['submitted', when(agent.submitted_at)],
            ]),
          );
        }),
      ),
    ['vigil miner submit ./my-agent --track skills --name sentinel --provider openai', 'vigil miner submit --reference packages'],
  );
  examples(
    miner
      .command('agent')
      .description("the hotkey's active agent on a track (GET /v1/miners/agents/{track})")
      .addOption(trackOption().makeOptionMandatory())
      .option(keyfileOption, keyfileHelp)
      .action(
        action(kit, async (ctx, opts: { track: Track; keyfile?: string }) => {
          const client = await ctx.signed(keyfileOf(ctx, opts.keyfile));
          const agent = await client.miners.agent(opts.track);
          ctx.emit(() => ctx.out.fields([['agent', `${agent.name} v${agent.version} (${agent.status})`], ['provider', agent.provider], ['agent hash', agent.agent_hash], ['submitted', when(agent.submitted_at)]]));
        }),
      ),
    ['vigil miner agent --track skills'],
  );
  examples(
    miner
      .command('delete')
      .description("deletes the hotkey's agent on a track: it leaves future rounds (DELETE /v1/miners/agents/{track})")
      .addOption(trackOption().makeOptionMandatory())
      .option(keyfileOption, keyfileHelp)
      .action(
        action(kit, async (ctx, opts: { track: Track; keyfile?: string }) => {
          const client = await ctx.signed(keyfileOf(ctx, opts.keyfile));
          await client.miners.deleteAgent(opts.track);
          ctx.emit(() => ctx.out.line(`Deleted the agent of ${client.hotkey} on ${opts.track}.`), { hotkey: client.hotkey, track: opts.track, deleted: true });
        }),
      ),
    ['vigil miner delete --track skills'],
  );

  const validator = program.command('validator').description('validator calls, signed with the hotkey');
  examples(
    validator
      .command('register')
      .description('registers the hotkey as a validator with the addresses it calls from (POST /v1/validators/registration)')
      .requiredOption('--allowed-ip <ip...>', 'IPv4 or IPv6 addresses the validator calls from (1-32)')
      .option(keyfileOption, keyfileHelp)
      .action(
        action(kit, async (ctx, opts: { allowedIp: string[]; keyfile?: string }) => {
          const client = await ctx.signed(keyfileOf(ctx, opts.keyfile));
          const r = await client.validators.register({ allowed_ips: opts.allowedIp });
          ctx.emit(() => ctx.out.fields([['hotkey', r.hotkey], ['uid', r.uid], ['status', r.status], ['allowed ips', r.allowed_ips.join(', ')]]));
        }),
      ),
    ['vigil validator register --allowed-ip 203.0.113.7', 'vigil validator register --allowed-ip 203.0.113.7 2001:db8::7 --keyfile validator.json'],
  );
  examples(
    validator
      .command('attest')
      .argument('<file>', 'a signed attestation envelope as JSON, with its dsse_signature when it has one (from signAttestationSubmission of @vigil/crypto); - reads standard input')
      .description('submits one signed attestation (POST /v1/validators/attestations); validator run submits in batches instead')
      .option(keyfileOption, keyfileHelp)
      .action(
        action(kit, async (ctx, file: string, opts: { keyfile?: string }) => {
          const parsed = AttestationSubmission.safeParse(await readJson(ctx.io, file, 'file'));
          if (!parsed.success) {
            const issue = parsed.error.issues[0];
            throw new CliError(`file: ${file === '-' ? 'standard input' : file} is not an attestation envelope (${issue?.path.join('.') || '(root)'}: ${issue?.message ?? ''})`);
          }
          const client = await ctx.signed(keyfileOf(ctx, opts.keyfile));
          const r = await client.validators.attest(parsed.data);
          ctx.emit(() => ctx.out.fields([['task', r.task_id], ['canonical hash', r.canonical_hash], ['recorded', r.created ? 'yes' : 'no (this exact envelope was recorded before)']]));
        }),
      ),
    ['vigil validator attest envelope.json', 'cat envelope.json | vigil validator attest - --keyfile validator.json'],
  );
  examples(
    validator
      .command('threat-intel')
      .argument('<sha256>', 'the artifact content hash, sha256:<64 hex>')
      .description('what Vigil already knows about an artifact content (GET /v1/validators/threat-intel/{sha256})')
      .option(keyfileOption, keyfileHelp)
      .action(
        action(kit, async (ctx, sha256: string, opts: { keyfile?: string }) => {
          if (!Sha256Hash.safeParse(sha256).success) throw new UsageError(`sha256: expected sha256:<64 lowercase hex>, got ${JSON.stringify(sha256)}`);
          const client = await ctx.signed(keyfileOf(ctx, opts.keyfile));
          const r = await client.validators.threatIntel(sha256);
          ctx.emit(() => {
            ctx.out.fields([['sha256', r.sha256], ['artifacts', r.bundle_hashes.join(', ') || '-'], ['verdict', r.verdict ?? '-'], ['verdict updated', r.verdict_updated_at === null ? '-' : when(r.verdict_updated_at)], ['findings', r.findings.length]]);
            for (const f of r.findings) ctx.out.line(`  ${f.severity} ${f.category}: ${f.title} (${f.file})`);
          });
        }),
      ),
    ['vigil validator threat-intel sha256:3a225f84d34fd000166db003c33e4bebeee54fad3682ee53b9d5605012da76ef'],
  );
  registerValidatorRun(validator, kit);
}
