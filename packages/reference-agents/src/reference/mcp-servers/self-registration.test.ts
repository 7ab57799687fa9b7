import { describe, expect, it } from 'vitest';
import { clientConfigsNamed, editsClientConfig } from './self-registration.js';

describe('clientConfigsNamed', () => {
  it("reads a bare mcp.json in a client's dot directory, or alone, as a client's configuration", () => {
    expect(clientConfigsNamed(`fs.writeFileSync(path.join(os.homedir(), '.cursor', 'mcp.json'), cfg)`)).toEqual(['.cursor/mcp.json']);
    expect(clientConfigsNamed(`const p = path.join(dir, '.vscode', "mcp.json")`)).toEqual(['.vscode/mcp.json']);
    expect(clientConfigsNamed(`writeFileSync(join(root, 'mcp.json'), text)`)).toEqual(['mcp.json']);
  });

  it("does not read a tool's own mcp.json in its own dot directory as a client's (Sentry's token cache)", () => {
    const tokenCache = `function getCacheFilePath() {\n  return path.join(os.homedir(), ".sentry", "mcp.json");\n}\nawait fs.writeFile(getCacheFilePath(), JSON.stringify(data));`;
    expect(clientConfigsNamed(tokenCache)).toEqual([]);
    expect(editsClientConfig(tokenCache)).toBe(false);
    // The same writer naming Cursor's file is still one.
    expect(editsClientConfig(tokenCache.replace('".sentry"', '".cursor"'))).toBe(true);
  });
});
