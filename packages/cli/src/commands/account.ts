import { Vigil } from '@vigil/client';
import { API_KEY_SCOPES, type ApiKeyScope } from '@vigil/core';
import type { Command } from 'commander';
import { action, examples, type Kit } from '../command-kit.js';
import { DEFAULT_BASE_URL, DEFAULT_PROFILE, configPath, readConfig, writeConfig } from '../config.js';
import { connectionOptionMessage } from '../context.js';
import { UsageError } from '../exit-codes.js';
import { when } from '../output.js';
import { scopesArg } from './scopes.js';

/** login, logout, whoami and the account's keys (docs/accounts.md). */
export function registerAccount(program: Command, kit: Kit): void {
  examples(
    program
      .command('login')
      .description('check a token against the server and save it with the base URL in the profile file (mode 0600)')
      .option('--no-check', 'save without asking the server whether the token works')
      .action(
        action(kit, async (ctx, opts: { check: boolean }) => {
          const { io, options } = ctx;
          const profileName = options.profile ?? (io.env.VIGIL_PROFILE || undefined) ?? DEFAULT_PROFILE;
          const config = await readConfig(io);
          const existing = config.profiles[profileName] ?? {};
          const baseUrl = options.baseUrl ?? options.url ?? (io.env.VIGIL_BASE_URL?.trim() || undefined) ?? (io.env.VIGIL_URL?.trim() || undefined) ?? existing.base_url ?? DEFAULT_BASE_URL;
          let token = options.token ?? options.apiKey;
          if (token === undefined) {
            if (!io.readStdin) throw new UsageError('--token: required');
            if (io.stderrIsTTY) io.stderr('Paste the API token (vgl_…), then press Enter and Ctrl-D:\n');
            token = (await io.readStdin()).trim();
            if (token === '') throw new UsageError('--token: required (or the token on standard input)');
          }
          let client: Vigil;
          try {
            client = new Vigil({ baseUrl, apiKey: token, fetch: ctx.fetch() });
          } catch (err) {
            throw new UsageError(connectionOptionMessage(err as Error, { baseUrl: '--base-url', apiKey: '--token' }));
          }
          const self = opts.check ? await client.account.get() : null;
          config.profiles[profileName] = { ...existing, base_url: baseUrl, token };
          const path = await writeConfig(io, config);
          ctx.emit(
            () => {
              if (self) ctx.out.line(`Logged in to ${baseUrl} as ${ctx.out.c.bold(self.account.name)} (${self.account.kind}, ${self.account.plan} plan) with key ${self.key.key_id} (${self.key.scopes.join(', ')}).`);
              ctx.out.line(`Saved profile ${profileName} in ${path}.`);
            },
            { profile: profileName, base_url: baseUrl, path, account: self ? ctx.recorder.last : null },
          );
        }),
      ),
    ['vigil login --base-url https://api.vigil.example --token vgl_…', 'echo "$VIGIL_TOKEN" | vigil login --base-url https://api.vigil.example', 'vigil login --profile staging --base-url https://staging.vigil.example --token vgl_…'],
  );

  examples(
    program
      .command('logout')
      .description('remove a profile (its token and base URL) from the profile file')
      .action(
        action(kit, async (ctx) => {
          const { io, options } = ctx;
          const profileName = options.profile ?? (io.env.VIGIL_PROFILE || undefined) ?? DEFAULT_PROFILE;
          const config = await readConfig(io);
          const had = profileName in config.profiles;
          if (had) {
            delete config.profiles[profileName];
            await writeConfig(io, config);
          }
          ctx.emit(() => ctx.out.line(had ? `Removed profile ${profileName} from ${configPath(io)}.` : `No profile ${profileName} in ${configPath(io)}: nothing to remove.`), { profile: profileName, removed: had });
        }),
      ),
    ['vigil logout', 'vigil logout --profile staging'],
  );

  examples(
    program
      .command('whoami')
      .description('the account and key the configured token belongs to (GET /v1/account)')
      .action(
        action(kit, async (ctx) => {
          const connection = await ctx.connect();
          const self = await (await ctx.customer()).account.get();
          ctx.emit(() =>
            ctx.out.fields([
              ['server', `${connection.baseUrl} (from ${connection.baseUrlFrom})`],
              ['account', `${self.account.name} (${self.account.id}, ${self.account.kind}, ${self.account.plan} plan${self.account.trusted ? ', trusted' : ''})`],
              ['key', `${self.key.name} (${self.key.key_id}, from ${connection.tokenFrom})`],
              ['scopes', self.key.scopes.join(', ')],
            ]),
          );
        }),
      ),
    ['vigil whoami', 'VIGIL_API_TOKEN=vgl_… vigil whoami --json'],
  );

  const keys = program.command('keys').description("the account's API keys (scope keys)");
  examples(
    keys
      .command('create')
      .description('a new key; its token is shown once, in this answer (POST /v1/keys)')
      .requiredOption('--name <name>', 'a name for the key (1-100 characters)')
      .requiredOption('--scopes <list>', `comma-separated scopes: ${API_KEY_SCOPES.join(', ')}`, scopesArg)
      .action(
        action(kit, async (ctx, opts: { name: string; scopes: ApiKeyScope[] }) => {
          const key = await (await ctx.customer()).keys.create({ name: opts.name, scopes: opts.scopes });
          ctx.emit(() => {
            ctx.out.line(key.token);
            ctx.out.note(`Created key ${key.key_id} (${key.name}; ${key.scopes.join(', ')}). The token above is shown only once: store it now.`);
          });
        }),
      ),
    ['vigil keys create --name ci --scopes read,verify,repositories'],
  );
  examples(
    keys
      .command('list')
      .description('every key of the account, newest first, revoked ones included (GET /v1/keys)')
      .action(
        action(kit, async (ctx) => {
          const list = await (await ctx.customer()).keys.list();
          ctx.emit(() => ctx.out.table(['key', 'name', 'scopes', 'status', 'created', 'last used', 'uses'], list.map((k) => [k.key_id, k.name, k.scopes.join(','), k.status, when(k.created_at), when(k.last_used_at), k.use_count])));
        }),
      ),
    ['vigil keys list', 'vigil keys list --json | jq -r ".keys[].key_id"'],
  );
  examples(
    keys
      .command('revoke <key_id>')
      .description('revokes a key of the account, not the one in use (DELETE /v1/keys/{key_id})')
      .action(
        action(kit, async (ctx, keyId: string) => {
          const key = await (await ctx.customer()).keys.revoke(keyId);
          ctx.emit(() => ctx.out.line(`Revoked key ${key.key_id} (${key.name}) at ${when(key.revoked_at)}.`));
        }),
      ),
    ['vigil keys revoke 0123abcd'],
  );
}
