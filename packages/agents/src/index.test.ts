import * as referenceAgents from '@vigil/reference-agents';
import * as sandbox from '@vigil/sandbox';
import { describe, expect, it } from 'vitest';
import * as agents from './index.js';

describe('@vigil/agents', () => {
  it('re-exports every value of @vigil/sandbox and @vigil/reference-agents, the same objects, and nothing else', () => {
    const expected = { ...sandbox, ...referenceAgents };
    expect(Object.keys(agents).sort()).toEqual(Object.keys(expected).sort());
    for (const [name, value] of Object.entries(expected)) expect(agents[name as keyof typeof agents], name).toBe(value);
    // The two packages never export the same name: one would silently hide the other here.
    expect(Object.keys(sandbox).filter((name) => name in referenceAgents)).toEqual([]);
  });
});
