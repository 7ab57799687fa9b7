import { join } from 'node:path';
import { configDir } from './config.js';
import type { Context } from './context.js';

/** `<config dir>/hotkey.json`: where keygen writes and miner/validator commands look without --keyfile. */
export function defaultKeyfile(ctx: Context): string {
  return join(configDir(ctx.io), 'hotkey.json');
}

/** The keyfile a miner or validator command signs with: `--keyfile`, VIGIL_KEYFILE, or the default. */
export function keyfileOf(ctx: Context, given: string | undefined): string {
  return given ?? (ctx.io.env.VIGIL_KEYFILE || undefined) ?? defaultKeyfile(ctx);
}
