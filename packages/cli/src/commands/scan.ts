import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, realpath, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { AgentBudget } from '@vigil/sandbox';
import { AgentBundle, agentHash, TRACKS, type AgentFinding, type Track, type Verdict } from '@vigil/core';
import { Option, type Command } from 'commander';
import { action, examples, type Kit } from '../command-kit.js';
import { intArg } from '../context.js';
import { CliError, EXIT, UsageError, verdictExit, type FailOn } from '../exit-codes.js';
import { trackOption } from './public-reads.js';
import { failOnOption } from './verify.js';

/** The failure reasons that mean the agent ran out of its budget (docs/agents.md, "Budget"). */
const BUDGET_FAILURES = new Set(['timeout', 'cpu_limit', 'memory_limit', 'output_too_large']);

/** `vigil scan --json`: one object on stdout (docs/cli.md, "vigil scan"). */
export interface ScanReport {
  track: Track;
  verdict: Verdict | null;
  risk_score: number | null;
  findings: AgentFinding[];
  agent: { name: string; version: string | null; agent_hash: string };
  elapsed_ms: number;
  budget_exhausted: boolean;
  failure_reason: string | null;
}

interface ScanOptions {
  track?: Track;
  failOn: FailOn;
  agent?: string;
  budgetWallMs?: number;
  budgetCpuMs?: number;
  budgetMemoryMb?: number;
}

async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return `sha256:${hash.digest('hex')}`;
}

/**
 * @vigil/sandbox (the runner, the unpacker) and @vigil/reference-agents (the reference agents and
 * their parsers) are imported when a scan runs, not with this module: `vigil --help` loads every
 * command module, and importing them costs about seven times a bare `node -e 0` (docs/benchmarks.md,
 * "Command-line start-up"). A scan with `--agent` never loads the reference agents.
 */
const loadSandbox = () => import('@vigil/sandbox');
const loadReferenceAgents = () => import('@vigil/reference-agents');

/** A bundle file given with `--agent`, or the track's reference agent. */
async function agentFor(track: Track, file: string | undefined): Promise<{ name: string; version: string | null; agent_hash: string; bundle: AgentBundle }> {
  if (file === undefined) {
    const { referenceAgent } = await loadReferenceAgents();
    try {
      const reference = await referenceAgent(track);
      return { name: reference.name, version: reference.version, agent_hash: reference.agent_hash, bundle: reference.bundle };
    } catch (err) {
      throw new CliError((err as Error).message);
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new CliError(`--agent: cannot read ${file} as JSON: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const parsed = AgentBundle.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new CliError(`--agent: ${file} is not a vigil-agent-bundle/1: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return { name: basename(file), version: null, agent_hash: agentHash(parsed.data), bundle: parsed.data };
}

/** An agent's text for a terminal: unprintable characters (escape sequences, bidi overrides) as one space, clipped. */
const clip = (printableText: (text: string, max: number) => string, text: string | undefined, max: number) => {
  const flat = printableText(text ?? '', Number.MAX_SAFE_INTEGER).replace(/\s+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** `vigil scan`: the reference analysis of a track, run locally in the sandbox. */
export function registerScan(program: Command, kit: Kit): void {
  examples(
    program
      .command('scan <path>')
      .description('analyzes a directory or archive (.tgz, .tar.gz, .zip, .whl) locally with the reference agent of its track, in the sandbox')
      .addOption(trackOption())
      .addOption(failOnOption())
      .option('--agent <bundle.json>', 'run this vigil-agent-bundle/1 file instead of the reference agent')
      .addOption(new Option('--budget-wall-ms <ms>', 'wall-clock budget of the run (default 60000)').argParser(intArg('--budget-wall-ms', 100, 3_600_000)))
      .addOption(new Option('--budget-cpu-ms <ms>', 'CPU budget of the run (default 30000)').argParser(intArg('--budget-cpu-ms', 100, 3_600_000)))
      .addOption(new Option('--budget-memory-mb <mb>', 'memory budget of the run in MiB (default 512)').argParser(intArg('--budget-memory-mb', 64, 65_536)))
      .action(
        action(kit, async (ctx, path: string, opts: ScanOptions) => {
          const { detectTrack, materializeBundle, printableText, removeTree, runAgent, unpackArchive, UnpackError } = await loadSandbox();
          const info = await stat(path).catch(() => null);
          if (info === null) throw new CliError(`${path}: does not exist`);
          if (!info.isDirectory() && !info.isFile()) throw new CliError(`${path}: is neither a directory nor a file`);
          // Ctrl-C (SIGINT or SIGTERM) stops the agent and removes the scratch and unpacked files
          // before exiting 130: left to the default action, the agent (in its own process group)
          // and the temporary directory would outlive the command.
          const stop = new AbortController();
          if (ctx.io.interrupted) void ctx.io.interrupted().then(() => stop.abort());
          const interruptedExit = () => {
            ctx.io.stderr('vigil: interrupted: the agent run was stopped and its files removed\n');
            return EXIT.interrupted;
          };
          const work = await mkdtemp(join(tmpdir(), 'vigil-scan-'));
          try {
            let root: string;
            let sha256: string | null = null;
            if (info.isDirectory()) root = await realpath(path);
            else {
              try {
                root = (await unpackArchive(path, join(work, 'artifact'))).root;
              } catch (err) {
                if (err instanceof UnpackError) throw new CliError(`${path}: ${err.message} (${err.code})`);
                throw err;
              }
              sha256 = await sha256File(path);
            }
            const track = opts.track ?? (await detectTrack(root));
            if (track === null) throw new UsageError(`--track: cannot tell the track of ${path} from its files; pass --track (${TRACKS.join(', ')})`);
            const agent = await agentFor(track, opts.agent);
            const bundleDir = await materializeBundle(agent.bundle, join(work, 'agent'));
            const budget: Partial<AgentBudget> = {
              ...(opts.budgetWallMs !== undefined ? { wallMs: opts.budgetWallMs } : {}),
              ...(opts.budgetCpuMs !== undefined ? { cpuMs: opts.budgetCpuMs } : {}),
              ...(opts.budgetMemoryMb !== undefined ? { memoryBytes: opts.budgetMemoryMb * 1024 * 1024 } : {}),
            };
            if (stop.signal.aborted) return interruptedExit();
            const outcome = await ctx.withProgress(`scanning ${path} (${track}) with ${agent.name}`, () =>
              runAgent({ bundleDir, entrypoint: agent.bundle.entrypoint, artifactDir: root, metadata: { track, sha256, bundleHash: null }, budget, workDir: work, signal: stop.signal }),
            );
            if (stop.signal.aborted) return interruptedExit();
            const report: ScanReport = {
              track,
              verdict: outcome.ok ? outcome.result.verdict : null,
              risk_score: outcome.ok ? outcome.result.risk_score : null,
              findings: outcome.ok ? outcome.result.findings : [],
              agent: { name: agent.name, version: agent.version, agent_hash: agent.agent_hash },
              elapsed_ms: outcome.elapsedMs,
              budget_exhausted: !outcome.ok && BUDGET_FAILURES.has(outcome.failureReason),
              failure_reason: outcome.ok ? null : outcome.failureReason,
            };
            if (!outcome.ok) ctx.io.stderr(`vigil: the agent run failed: ${outcome.failureReason}: ${outcome.detail}\n`);
            if (ctx.json) ctx.out.printJson(report);
            else {
              // A failed run has no findings to show: only the line saying so.
              if (outcome.ok)
                ctx.out.table(
                ['severity', 'category', 'title', 'location', 'evidence'],
                report.findings.map((f) => [f.severity, clip(printableText, f.category, 40), clip(printableText, f.title, 60), clip(printableText, f.line === undefined ? f.file : `${f.file}:${f.line}`, 80), clip(printableText, f.evidence, 60)]),
              );
              const by = `${agent.name}${agent.version ? ` ${agent.version}` : ''}`;
              ctx.out.line(
                outcome.ok
                  ? `${ctx.out.verdict(outcome.result.verdict)} (risk ${outcome.result.risk_score}): ${report.findings.length} finding${report.findings.length === 1 ? '' : 's'}, ${track}, ${by}, ${(report.elapsed_ms / 1000).toFixed(1)} s`
                  : `no verdict: the agent run failed (${outcome.failureReason}), ${track}, ${by}`,
              );
            }
            return outcome.ok ? verdictExit(outcome.result.verdict, opts.failOn) : EXIT.error;
          } finally {
            await removeTree(work);
          }
        }),
      ),
    ['vigil scan ./node_modules/left-pad', 'vigil scan left-pad-1.3.0.tgz --json', 'vigil scan ./my-skill --track skills --fail-on block', 'vigil scan pkg.tgz --agent ./my-agent.bundle.json'],
  );
}
