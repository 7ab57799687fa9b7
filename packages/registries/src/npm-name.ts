/**
 * npm package names as the registry accepts them: `name` or `@scope/name`, URL-safe characters
 * only. Legacy names with capitals still exist on the registry and are accepted.
 */
const NPM_NAME = /^(?:@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]*$/i;

export function isNpmName(name: string): boolean {
  return name.length <= 214 && NPM_NAME.test(name);
}

/** The packument path: a scoped name keeps its `@` and encodes the slash (`/@scope%2fname`). */
export function npmPackumentPath(name: string): string {
  return `/${name.replace('/', '%2f')}`;
}
