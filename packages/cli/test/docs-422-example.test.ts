import { readFileSync } from 'node:fs';
import { AttestationListQuery } from '@vigil/core';
import { describe, expect, it } from 'vitest';

// docs/cli.md's example of a 422 shows the issue the server sends for that command line: the
// message of @vigil/core's query schema, which the server answers with.
describe("docs/cli.md's 422 example", () => {
  it('is the message the server gives for a timestamp without a zone offset', () => {
    const doc = readFileSync(new URL('../../../docs/cli.md', import.meta.url), 'utf8');
    const example = /\$ vigil attestations list --since (\S+)\n\s*vigil: 422 Validation error \(request id [^)]*\)\n\s*query\.since: (.+)\n/.exec(doc);
    expect(example, 'the example in docs/cli.md').not.toBeNull();
    const result = AttestationListQuery.safeParse({ since: example![1] });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([`since: ${example![2]}`]);
  });
});
