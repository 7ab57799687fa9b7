import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { VigilApiError, VigilClient, VigilResponseError } from '@vigil/client';
import { canonicalHash, MetagraphSnapshot, Track } from '@vigil/core';
import { verifyAttestation } from '@vigil/crypto';

export const USAGE = `vigil — the Vigil command line

Usage: vigil [--url URL] [--compact] <command> [arguments]

Public reads (no token; --url or VIGIL_URL, default http://localhost:8080):
  health                              liveness of the server
  identity                            the server's ed25519 identity key
  dashboard                           network telemetry
  trends [--days N]                   threat trends over the last N days (1-180, default 30)
  status                              the current round of every track
  rounds [--limit N]                  closed rounds, newest first (1-200, default 60)
  scores <round_id>                   ranked scores of a round
  attestations <round_id> --miner HK  a miner's attestations in a closed round
  leaderboard                         current standings per track
  agents [--track T]                  active agents
  agent <hotkey> [--track T]          an agent's eligibility for the next round

Offline (no network):
  verify-attestation <envelope.json> --metagraph <snapshot.json>
                                      the three checks of an attestation: canonical hash,
                                      ed25519 signature, validator permit on netuid 76
  canonical-hash <file.json>          sha256:<hex> of the RFC 8785 canonical form

Options:
  --url URL        server base URL (env VIGIL_URL)
  --api-key KEY    API token (env VIGIL_API_KEY)
  --compact        one-line JSON output
  -h, --help       this text

Exit status: 0 success; 1 the server answered an error or could not be reached;
2 usage error; 3 the attestation is not genuine.`;

export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  fetch?: typeof globalThis.fetch;
}

class UsageError extends Error {}

function intOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value)) throw new UsageError(`--${name}: expected an integer, got ${JSON.stringify(value)}`);
  return Number(value);
}

function trackOption(value: string | undefined): Track | undefined {
  if (value === undefined) return undefined;
  const parsed = Track.safeParse(value);
  if (!parsed.success) throw new UsageError(`--track: expected one of ${Track.options.join(', ')}, got ${JSON.stringify(value)}`);
  return parsed.data;
}

async function readJsonFile(path: string, argument: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new UsageError(`${argument}: cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${argument}: ${path} is not JSON: ${(err as Error).message}`);
  }
}

function positional(positionals: string[], index: number, name: string): string {
  const value = positionals[index];
  if (value === undefined) throw new UsageError(`missing argument <${name}>`);
  return value;
}

/** Runs one command; returns the exit status. Output goes through `io` so tests can read it. */
export async function run(argv: string[], io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        url: { type: 'string' },
        'api-key': { type: 'string' },
        compact: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
        days: { type: 'string' },
        limit: { type: 'string' },
        track: { type: 'string' },
        miner: { type: 'string' },
        metagraph: { type: 'string' },
      },
    });
  } catch (err) {
    io.stderr(`vigil: ${(err as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help || command === undefined || command === 'help') {
    io.stdout(`${USAGE}\n`);
    return command === undefined && !values.help ? 2 : 0;
  }
  const print = (value: unknown) => io.stdout(`${JSON.stringify(value, null, values.compact ? undefined : 2)}\n`);

  try {
    if (command === 'verify-attestation') {
      const envelope = await readJsonFile(positional(rest, 0, 'envelope.json'), 'envelope');
      if (!values.metagraph) throw new UsageError('--metagraph: required (a metagraph snapshot file)');
      const snapshot = MetagraphSnapshot.safeParse(await readJsonFile(values.metagraph, '--metagraph'));
      if (!snapshot.success) throw new UsageError(`--metagraph: not a metagraph snapshot: ${snapshot.error.issues[0]?.message ?? ''}`);
      const result = verifyAttestation(envelope, snapshot.data);
      print(result);
      return result.ok ? 0 : 3;
    }
    if (command === 'canonical-hash') {
      print({ canonical_hash: canonicalHash(await readJsonFile(positional(rest, 0, 'file.json'), 'file')) });
      return 0;
    }

    const client = new VigilClient({
      baseUrl: values.url ?? io.env.VIGIL_URL ?? 'http://localhost:8080',
      ...((values['api-key'] ?? io.env.VIGIL_API_KEY) ? { apiKey: values['api-key'] ?? io.env.VIGIL_API_KEY } : {}),
      ...(io.fetch ? { fetch: io.fetch } : {}),
    });
    switch (command) {
      case 'health':
        print(await client.health());
        return 0;
      case 'identity':
        print(await client.serverIdentity());
        return 0;
      case 'dashboard':
        print(await client.networkDashboard());
        return 0;
      case 'trends':
        print(await client.threatTrends({ days: intOption(values.days, 'days') }));
        return 0;
      case 'status':
        print(await client.roundsStatus());
        return 0;
      case 'rounds':
        print(await client.rounds({ limit: intOption(values.limit, 'limit') }));
        return 0;
      case 'scores':
        print(await client.roundScores(positional(rest, 0, 'round_id')));
        return 0;
      case 'attestations': {
        if (!values.miner) throw new UsageError('--miner: required (the miner hotkey)');
        print(await client.roundAttestations(positional(rest, 0, 'round_id'), values.miner));
        return 0;
      }
      case 'leaderboard':
        print(await client.leaderboard());
        return 0;
      case 'agents':
        print(await client.agents({ track: trackOption(values.track) }));
        return 0;
      case 'agent':
        print(await client.agentEligibility(positional(rest, 0, 'hotkey'), { track: trackOption(values.track) }));
        return 0;
      default:
        throw new UsageError(`unknown command ${JSON.stringify(command)}`);
    }
  } catch (err) {
    if (err instanceof UsageError || err instanceof TypeError && /^options\./.test(err.message)) {
      io.stderr(`vigil: ${err.message}\n(run "vigil help" for usage)\n`);
      return 2;
    }
    if (err instanceof VigilApiError) {
      io.stderr(`vigil: ${err.status} ${err.detail}${err.requestId ? ` (request id ${err.requestId})` : ''}\n`);
      return 1;
    }
    if (err instanceof VigilResponseError) {
      io.stderr(`vigil: ${err.message}\n`);
      return 1;
    }
    // fetch reports an unreachable server as "fetch failed" with the socket error as its cause.
    const cause = (err as { cause?: { message?: string } }).cause;
    io.stderr(`vigil: ${(err as Error).message}${cause?.message ? `: ${cause.message}` : ''}\n`);
    return 1;
  }
}
