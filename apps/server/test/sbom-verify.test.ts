import { Spec, Validation } from '@cyclonedx/cyclonedx-library';
import { SbomVerification } from '@vigil/core';
import { beforeAll, expect, it } from 'vitest';
import { closedAfterEach } from '../src/test-support/closed-after-each.js';
import { operatorKey } from '../src/test-support/operator-key.js';
import { describeEachDialect } from '../src/test-support/databases.js';
import { publishLiveVerdicts } from '../src/test-support/fixtures.js';
import { startTestApp } from '../src/test-support/test-app.js';
import { generateRealSboms, type RealSboms } from './support/real-sboms.js';

let real: RealSboms;
beforeAll(() => {
  real = generateRealSboms();
}, 180_000);

const servers = closedAfterEach<{ close(): Promise<void> }>();

interface Answer {
  status: number;
  type: string | null;
  verdict: string | null;
  text: string;
  body: Record<string, any>;
}

describeEachDialect('POST /v1/sboms/verify', (ctx) => {
  async function start(): Promise<{ url: string; token: string }> {
    const started = await startTestApp({ database: ctx });
    servers.push(started);
    const token = await operatorKey(ctx.db(), ['--org', 'acme', '--plan', 'paid', '--scopes', 'repositories']);
    return { url: started.url, token };
  }

  async function post(server: { url: string; token: string }, body: unknown, query = '', contentType = 'application/json', token = server.token): Promise<Answer> {
    const response = await fetch(`${server.url}/v1/sboms/verify${query}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, type: response.headers.get('content-type'), verdict: response.headers.get('x-vigil-verdict'), text, body: JSON.parse(text) as Record<string, any> };
  }

  /** debug BLOCK, ms ALLOW, picocolors WARN (published verdicts claimed by the test's account); is-number stays unseen. */
  async function publish(): Promise<void> {
    const account = await ctx.db().selectFrom('accounts').select('account_id').executeTakeFirstOrThrow();
    await publishLiveVerdicts(ctx.db(), {
      uploadedBy: account.account_id,
      verdicts: new Map([
        [real.debug.purl, 'BLOCK'],
        [real.ms.purl, 'ALLOW'],
        [real.picocolors.purl, 'WARN'],
      ]),
    });
  }

  it("verifies cyclonedx-npm's SBOM of a real project: every npm component, its verdict, direct from the dependency graph", async () => {
    const server = await start();
    await publish();
    const answer = await post(server, real.cyclonedx);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.verdict).toBe('BLOCK');
    const verification = SbomVerification.parse(answer.body);
    expect(verification.sbom).toMatchObject({ spec: 'cyclonedx', spec_version: '1.6', name: 'sbom-fixture', version: '1.0.0' });
    expect(verification.sbom.serial_number).toBe(real.cyclonedx.serialNumber);
    expect(verification.summary).toEqual({ components: 4, verified: 4, without_purl: 0, unsupported: 0, packages: 4, direct: 3, allowed: 1, warned: 1, blocked: 1, pending: 1 });
    expect(verification.dependencies.map((d) => [d.purl, d.verdict, d.state, d.direct])).toEqual([
      [real.debug.purl, 'BLOCK', 'decided', true],
      [real.picocolors.purl, 'WARN', 'decided', true],
      [real.isNumber.purl, 'WARN', 'pending', true],
      [real.ms.purl, 'ALLOW', 'decided', false],
    ]);
    // Each dependency names the SBOM's components (their bom-refs) that list it.
    const debugRef = (real.cyclonedx.components as { purl: string; 'bom-ref': string }[]).find((c) => c.purl === real.debug.purl)!['bom-ref'];
    expect(verification.dependencies[0]).toMatchObject({ components: [debugRef], published_verdict: 'BLOCK', failed: ['vigil-block'] });
    expect(verification.dependencies[2]).toMatchObject({ queued: 'requested', published_verdict: null });
    expect(verification).toMatchObject({ verdict: 'BLOCK', complete: false, unverified: [], policy: { name: 'default', builtin: true } });
    // The unseen package is requested for the operator, as a lockfile's would be.
    expect((await ctx.db().selectFrom('package_requests').select('purl').execute()).map((r) => r.purl)).toEqual([real.isNumber.purl]);

    // CycloneDX 1.5 is read the same way, and so is a body sent as CycloneDX's own media type.
    const older = await post(server, { ...real.cyclonedx, specVersion: '1.5', $schema: 'http://cyclonedx.org/schema/bom-1.5.schema.json' }, '', 'application/vnd.cyclonedx+json');
    expect(older.status, older.text).toBe(200);
    expect(older.body).toMatchObject({ sbom: { spec: 'cyclonedx', spec_version: '1.5' }, verdict: 'BLOCK', summary: { packages: 4 } });
  });

  it("verifies npm sbom's SPDX 2.3 document of the same project: the same verdicts, dev and direct from its relationships", async () => {
    const server = await start();
    await publish();
    const answer = await post(server, real.spdx, '', 'application/spdx+json');
    expect(answer.status, answer.text).toBe(200);
    const verification = SbomVerification.parse(answer.body);
    expect(verification.sbom).toMatchObject({ spec: 'spdx', spec_version: '2.3', name: 'sbom-fixture', version: '1.0.0', serial_number: real.spdx.documentNamespace });
    // The described package (the project itself) is the subject, not a component.
    expect(verification.summary).toMatchObject({ components: 4, verified: 4, packages: 4, direct: 3, blocked: 1, warned: 1, pending: 1, allowed: 1 });
    const byPurl = new Map(verification.dependencies.map((d) => [d.purl, d]));
    expect(byPurl.get(real.isNumber.purl)).toMatchObject({ direct: true, dev: true, state: 'pending' });
    expect(byPurl.get(real.ms.purl)).toMatchObject({ direct: false, dev: false, verdict: 'ALLOW' });
    expect(byPurl.get(real.debug.purl)!.components).toEqual([`SPDXRef-Package-debug-${real.debug.version}`]);
    expect(answer.verdict).toBe('BLOCK');
  });

  it('answers a CycloneDX 1.6 VEX document built by the CycloneDX library, valid against the 1.6 schema', async () => {
    const server = await start();
    await publish();
    const answer = await post(server, real.spdx, '?format=cyclonedx');
    expect(answer.status, answer.text).toBe(200);
    expect(answer.type).toBe('application/vnd.cyclonedx+json; version=1.6; charset=utf-8');
    expect(answer.verdict).toBe('BLOCK');
    // The library's strict JSON validator (ajv with the bundled 1.6 schema): null means valid.
    expect(await new Validation.JsonStrictValidator(Spec.Version.v1dot6).validate(answer.text)).toBeNull();
    const vex = answer.body;
    expect(vex).toMatchObject({ bomFormat: 'CycloneDX', specVersion: '1.6', metadata: { component: { name: 'sbom-fixture', version: '1.0.0' } } });
    const property = (list: { name: string; value: string }[], name: string) => list.filter((p) => p.name === name).map((p) => p.value);
    expect(property(vex.metadata.properties, 'vigil:verdict')).toEqual(['BLOCK']);
    expect(property(vex.metadata.properties, 'vigil:sbom:serial_number')).toEqual([real.spdx.documentNamespace]);
    const components = vex.components as { 'bom-ref': string; purl: string; properties: { name: string; value: string }[] }[];
    expect(components.map((c) => c.purl).sort()).toEqual([real.debug.purl, real.isNumber.purl, real.ms.purl, real.picocolors.purl].sort());
    expect(property(components.find((c) => c.purl === real.isNumber.purl)!.properties, 'vigil:state')).toEqual(['pending']);
    // One vulnerability per dependency that is not allowed, affecting it: blocked → exploitable, the others in triage.
    const vulnerabilities = (vex.vulnerabilities as { id: string; analysis: { state: string }; ratings: { severity: string }[]; affects: { ref: string }[] }[]).map((v) => [
      v.id,
      v.analysis.state,
      v.ratings[0]!.severity,
      components.find((c) => c['bom-ref'] === v.affects[0]!.ref)!.purl,
    ]);
    expect(vulnerabilities.sort()).toEqual(
      [
        ['VIGIL-BLOCK', 'exploitable', 'critical', real.debug.purl],
        ['VIGIL-WARN', 'in_triage', 'medium', real.picocolors.purl],
        ['VIGIL-WARN', 'in_triage', 'medium', real.isNumber.purl],
      ].sort(),
    );
  });

  it('answers SARIF 2.1.0: an error per blocked package, a warning per warned or pending one, a note per unverified component', async () => {
    const server = await start();
    await publish();
    const sbom = structuredClone(real.cyclonedx);
    sbom.components.push({ type: 'library', name: 'guava', version: '33.0.0', 'bom-ref': 'guava', purl: 'pkg:maven/com.google.guava/guava@33.0.0' });
    const answer = await post(server, sbom, '?format=sarif&sbom_path=dist/bom.json');
    expect(answer.status, answer.text).toBe(200);
    expect(answer.type).toBe('application/sarif+json; charset=utf-8');
    expect(answer.verdict).toBe('BLOCK');
    const sarif = answer.body as { version: string; runs: { tool: { driver: { name: string; rules: { id: string }[] } }; results: any[]; properties: Record<string, any> }[] };
    expect(sarif.version).toBe('2.1.0');
    const run = sarif.runs[0]!;
    expect(run.tool.driver.rules.map((r) => r.id)).toEqual(['vigil/blocked-dependency', 'vigil/warned-dependency', 'vigil/unverified-component']);
    expect(run.results.map((r) => [r.ruleId, r.level, r.locations[0].logicalLocations[0].name])).toEqual([
      ['vigil/blocked-dependency', 'error', real.debug.purl],
      ['vigil/warned-dependency', 'warning', real.picocolors.purl],
      ['vigil/warned-dependency', 'warning', real.isNumber.purl],
      ['vigil/unverified-component', 'note', 'pkg:maven/com.google.guava/guava@33.0.0'],
    ]);
    for (const result of run.results) {
      expect(result.locations[0].physicalLocation.artifactLocation.uri).toBe('dist/bom.json');
      expect(run.tool.driver.rules[result.ruleIndex]!.id).toBe(result.ruleId);
    }
    expect(run.properties).toMatchObject({ verdict: 'BLOCK', complete: false, summary: { components: 5, unsupported: 1 } });
  });

  it('reports a pending dependency in SARIF and VEX even when the policy gives it ALLOW (it is never allowed: the verdict is WARN)', async () => {
    const server = await start();
    // Under this policy no rule fails, so a pending package's own verdict is ALLOW.
    const admin = await operatorKey(ctx.db(), ['--org', 'acme', '--plan', 'paid', '--scopes', 'policies']);
    const created = await fetch(`${server.url}/v1/policies`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'lenient', rules: [{ name: 'always', expression: 'true', action: 'block' }] }),
    });
    expect(created.status, await created.text()).toBe(201);
    const json = await post(server, real.cyclonedx, '?policy=lenient');
    expect(json.status, json.text).toBe(200);
    expect(json.verdict).toBe('WARN');
    const pending = (json.body.dependencies as { purl: string; verdict: string; state: string }[]).filter((d) => d.state === 'pending');
    expect(pending.length).toBe(4);
    expect(pending.every((d) => d.verdict === 'ALLOW')).toBe(true);

    const sarif = await post(server, real.cyclonedx, '?policy=lenient&format=sarif');
    expect(sarif.verdict).toBe('WARN');
    const results = sarif.body.runs[0].results as { ruleId: string; properties: { purl: string; state: string } }[];
    expect(results.map((r) => [r.ruleId, r.properties.state]).sort()).toEqual(pending.map(() => ['vigil/warned-dependency', 'pending']));
    expect(results.map((r) => r.properties.purl).sort()).toEqual(pending.map((d) => d.purl).sort());

    const vex = await post(server, real.cyclonedx, '?policy=lenient&format=cyclonedx');
    expect(vex.verdict).toBe('WARN');
    expect((vex.body.vulnerabilities as { id: string; 'bom-ref': string }[]).map((v) => [v.id, v['bom-ref']]).sort()).toEqual(pending.map((d) => ['VIGIL-WARN', `vigil-verdict:${d.purl}`]).sort());
  });

  it('merges duplicates: development-only only if every component says so; npm names npm refuses and PyPI names per PEP 503', async () => {
    const server = await start();
    const dev = [{ name: 'cdx:npm:package:development', value: 'true' }];
    const answer = await post(server, {
      bomFormat: 'CycloneDX',
      specVersion: '1.6',
      components: [
        { 'bom-ref': 'a', name: 'left-pad', purl: 'pkg:npm/left-pad@1.3.0' },
        { 'bom-ref': 'b', name: 'left-pad', purl: 'pkg:npm/left-pad@1.3.0', properties: dev },
        { 'bom-ref': 'c', purl: 'pkg:npm/is-odd@3.0.1', properties: dev },
        { 'bom-ref': 'd', purl: 'pkg:npm/is-odd@3.0.1', properties: dev },
        { 'bom-ref': 'e', purl: 'pkg:npm/is-even@1.0.0', properties: [{ name: 'cdx:npm:package:development', value: 'false' }] },
        { 'bom-ref': 'f', purl: 'pkg:npm/is-even@1.0.0' },
        { 'bom-ref': 'g', purl: 'pkg:npm/../../etc@1.0.0' },
        { 'bom-ref': 'h', purl: 'pkg:npm/a/b/c@1.0.0' },
        { 'bom-ref': 'i', purl: 'pkg:npm/left-pad@1.3.0@2' },
        { 'bom-ref': 'j', purl: 'pkg:npm/%3Cscript%3Ealert(1)%3C%2Fscript%3E@1.0.0' },
        { 'bom-ref': 'k', purl: 'pkg:PYPI/Django_REST.framework@3.0.0' },
        { 'bom-ref': 'l', purl: 'pkg:pypi/django-rest-framework@3.0.0' },
        { 'bom-ref': 'm', purl: 'pkg:npm/@types/node@20.0.0' },
      ],
    });
    expect(answer.status, answer.text).toBe(200);
    const byPurl = new Map((answer.body.dependencies as { purl: string; dev: boolean | null; components: string[] }[]).map((d) => [d.purl, d]));
    expect(byPurl.get('pkg:npm/left-pad@1.3.0')).toMatchObject({ dev: null, components: ['a', 'b'] });
    expect(byPurl.get('pkg:npm/is-odd@3.0.1')).toMatchObject({ dev: true });
    expect(byPurl.get('pkg:npm/is-even@1.0.0')).toMatchObject({ dev: false });
    expect(byPurl.get('pkg:pypi/django-rest-framework@3.0.0')).toMatchObject({ components: ['k', 'l'] });
    expect(byPurl.has('pkg:npm/%40types/node@20.0.0')).toBe(true);
    expect(byPurl.size).toBe(5);
    const unverified = answer.body.unverified as { ref: string; reason: string; detail: string }[];
    expect(unverified.map((u) => [u.ref, u.reason])).toEqual([
      ['g', 'invalid_purl'],
      ['h', 'invalid_purl'],
      ['i', 'invalid_purl'],
      ['j', 'invalid_purl'],
    ]);
    expect(unverified[0]!.detail).toBe('purl: "../../etc" is not an npm package name (at most 214 characters of letters, digits, -, ., _ and ~, not starting with . or _, optionally after one @scope/)');
    // Nothing is requested for a name npm cannot have.
    expect((await ctx.db().selectFrom('package_requests').select('purl').execute()).map((r) => r.purl).sort()).toEqual([...byPurl.keys()].sort());
  });

  it('keeps the VEX and SARIF identities distinct when a hand-made SBOM repeats a bom-ref, and gives the subject a fixed bom-ref', async () => {
    const server = await start();
    const sbom = {
      bomFormat: 'CycloneDX',
      specVersion: '1.6',
      metadata: { component: { name: 'app', version: '1.0.0' } },
      components: [
        { 'bom-ref': 'x', name: 'one' },
        { 'bom-ref': 'x', name: 'two' },
      ],
    };
    const vex = await post(server, sbom, '?format=cyclonedx');
    expect(vex.status, vex.text).toBe(200);
    expect(vex.body.metadata.component['bom-ref']).toBe('vigil:subject');
    expect((vex.body.components as { 'bom-ref': string }[]).map((c) => c['bom-ref'])).toEqual(['unverified:x', 'unverified:x#2']);
    expect(vex.body.dependencies).toEqual([{ ref: 'vigil:subject' }, { ref: 'unverified:x' }, { ref: 'unverified:x#2' }]);
    expect(await new Validation.JsonStrictValidator(Spec.Version.v1dot6).validate(vex.text)).toBeNull();
    const sarif = await post(server, sbom, '?format=sarif');
    expect((sarif.body.runs[0].results as { partialFingerprints: Record<string, string> }[]).map((r) => r.partialFingerprints['vigilComponent/v1'])).toEqual(['x', 'x#2']);
  });

  it('reports components without a purl and purls it does not verify, per component, without refusing the SBOM', async () => {
    const server = await start();
    const answer = await post(server, {
      bomFormat: 'CycloneDX',
      specVersion: '1.6',
      components: [
        { type: 'library', name: 'vendored-lib', version: '1.0.0' },
        { type: 'library', name: 'guava', version: '33.0.0', 'bom-ref': 'guava', purl: 'pkg:maven/com.google.guava/guava@33.0.0' },
        { type: 'library', name: 'left-pad', purl: 'pkg:npm/left-pad' },
        { type: 'library', name: 'broken', 'bom-ref': 'b', purl: 'npm:left-pad@1.3.0' },
        // Nested components count, and qualifiers are dropped: the package is the package.
        { type: 'framework', name: 'outer', purl: 'pkg:npm/Outer@1.0.0', components: [{ type: 'library', name: 'requests', purl: 'pkg:pypi/Requests@2.32.3?file_name=requests-2.32.3.tar.gz' }] },
      ],
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.unverified).toEqual([
      { ref: 'components[0]', name: 'vendored-lib', version: '1.0.0', purl: null, reason: 'no_purl', detail: 'the component has no purl' },
      { ref: 'guava', name: 'guava', version: '33.0.0', purl: 'pkg:maven/com.google.guava/guava@33.0.0', reason: 'unsupported_type', detail: 'purl type maven is not verified (Vigil verifies npm and pypi)' },
      { ref: 'components[2]', name: 'left-pad', version: null, purl: 'pkg:npm/left-pad', reason: 'no_version', detail: 'purl has no version: Vigil verifies a package at a pinned version' },
      { ref: 'b', name: 'broken', version: null, purl: 'npm:left-pad@1.3.0', reason: 'invalid_purl', detail: 'purl: expected pkg:<type>/<name>@<version>, got "npm:left-pad@1.3.0"' },
    ]);
    expect(answer.body.dependencies.map((d: { purl: string; components: string[] }) => [d.purl, d.components])).toEqual([
      ['pkg:npm/Outer@1.0.0', ['components[4]']],
      ['pkg:pypi/requests@2.32.3', ['components[4].components[0]']],
    ]);
    expect(answer.body.summary).toEqual({ components: 6, verified: 2, without_purl: 1, unsupported: 3, packages: 2, direct: 0, allowed: 0, warned: 0, blocked: 0, pending: 2 });
    // No dependency graph: whether a package is direct is unknown, not false.
    expect(answer.body.dependencies[0].direct).toBeNull();
    expect(answer.body.verdict).toBe('WARN');

    // An SBOM with nothing Vigil verifies is answered, not refused: ALLOW with everything listed as unverified.
    const none = await post(server, { spdxVersion: 'SPDX-2.3', SPDXID: 'SPDXRef-DOCUMENT', packages: [{ SPDXID: 'SPDXRef-a', name: 'a' }] });
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ verdict: 'ALLOW', complete: true, summary: { components: 1, without_purl: 1, packages: 0 } });
  });

  it('refuses what is not an SBOM it reads with a catalogue code naming the field', async () => {
    const server = await start();
    const refusal = async (body: unknown, query = '', contentType = 'application/json') => {
      const answer = await post(server, body, query, contentType);
      return [answer.status, answer.body.code, answer.body.detail];
    };
    expect(await refusal('{"bomFormat": "CycloneDX",')).toEqual([400, 'bad_request', 'malformed JSON body']);
    expect(await refusal('{"bomFormat": ', '', 'application/vnd.cyclonedx+json')).toEqual([400, 'bad_request', 'malformed JSON body']);
    expect(await refusal({ name: 'app', lockfileVersion: 3 })).toEqual([
      422,
      'sbom_unsupported',
      'body: not an SBOM Vigil reads: expected a CycloneDX 1.5 or 1.6 JSON document ("bomFormat": "CycloneDX") or an SPDX 2.3 JSON document ("spdxVersion": "SPDX-2.3")',
    ]);
    expect(await refusal({ bomFormat: 'CycloneDX', specVersion: '1.4', components: [] })).toEqual([422, 'sbom_version_unsupported', 'specVersion: CycloneDX 1.4 is not read (Vigil reads 1.5 and 1.6)']);
    expect(await refusal({ spdxVersion: 'SPDX-2.2', packages: [] })).toEqual([422, 'sbom_version_unsupported', 'spdxVersion: SPDX-2.2 is not read (Vigil reads SPDX-2.3)']);
    expect(await refusal({ '@context': 'https://spdx.org/rdf/3.0.1/spdx-context.jsonld', '@graph': [] })).toEqual([422, 'sbom_version_unsupported', '@context: SPDX 3 is not read (Vigil reads SPDX-2.3 JSON)']);
    expect(await refusal({ bomFormat: 'SPDX', specVersion: '1.6' })).toEqual([422, 'sbom_unsupported', 'bomFormat: expected "CycloneDX", got "SPDX"']);
    expect(await refusal({ bomFormat: 'CycloneDX', specVersion: '1.6', components: {} })).toEqual([422, 'sbom_malformed', 'components: expected an array']);
    // A version that is not a string, or none, is a malformed document, not a version Vigil does not read.
    expect(await refusal({ bomFormat: 'CycloneDX', specVersion: 1.5, components: [] })).toEqual([422, 'sbom_malformed', 'specVersion: expected a string']);
    expect(await refusal({ bomFormat: 'CycloneDX', components: [] })).toEqual([422, 'sbom_malformed', 'specVersion: expected a string']);
    expect(await refusal({ spdxVersion: 2.3, packages: [] })).toEqual([422, 'sbom_malformed', 'spdxVersion: expected a string']);
    // null is read as absent, for every optional field read (documented): components null is no components.
    const nullComponents = await post(server, { bomFormat: 'CycloneDX', specVersion: '1.6', components: null });
    expect([nullComponents.status, nullComponents.body.summary?.components]).toEqual([200, 0]);
    expect(await refusal({ bomFormat: 'CycloneDX', specVersion: '1.6', components: [{ name: 'a', purl: 7 }] })).toEqual([422, 'sbom_malformed', 'components[0].purl: expected a string']);
    expect(await refusal({ spdxVersion: 'SPDX-2.3', packages: [{ SPDXID: 'SPDXRef-a', externalRefs: [{ referenceType: 'purl' }] }] })).toEqual([
      422,
      'sbom_malformed',
      'packages[0].externalRefs[0].referenceLocator: expected a string',
    ]);
    const many = Array.from({ length: 20_001 }, (_, i) => ({ type: 'library', name: `p${i}`, purl: `pkg:npm/p${i}@1.0.0` }));
    expect(await refusal({ bomFormat: 'CycloneDX', specVersion: '1.6', components: many })).toEqual([
      422,
      'sbom_too_large',
      'components: more than 20000 components (nested ones counted); Vigil reads at most 20000 per SBOM',
    ]);
    const array = await post(server, [{ bomFormat: 'CycloneDX' }]);
    expect([array.status, array.body.code, array.body.errors[0].path]).toEqual([422, 'validation_error', 'body']);
    const nullBody = await post(server, 'null');
    expect([nullBody.status, nullBody.body.code, nullBody.body.errors[0].path, nullBody.body.errors[0].message]).toEqual([422, 'validation_error', 'body', 'Invalid input: expected object, received undefined']);
    const format = await post(server, real.cyclonedx, '?format=xml');
    expect([format.status, format.body.errors[0].path]).toEqual([422, 'query.format']);
    const unknown = await post(server, real.cyclonedx, '?fromat=sarif');
    expect([unknown.status, unknown.body.errors[0].path]).toEqual([422, 'query']);
    expect(await refusal(real.cyclonedx, '?policy=nope')).toEqual([404, 'policy_not_found', 'policy not found']);
    expect(await refusal('bomFormat,specVersion', '', 'text/csv')).toEqual([415, 'unsupported_media_type', 'unsupported media type']);
    // Nothing was requested by a refused SBOM.
    expect(await ctx.db().selectFrom('package_requests').select('purl').execute()).toEqual([]);
  });

  it('needs the repositories scope and a paid plan, as repository verification does', async () => {
    const server = await start();
    const free = await operatorKey(ctx.db(), ['--org', 'free-co', '--plan', 'free', '--scopes', 'repositories']);
    const noScope = await operatorKey(ctx.db(), ['--org', 'acme', '--plan', 'paid', '--scopes', 'verify']);
    const asFree = await post(server, real.cyclonedx, '', 'application/json', free);
    const asNoScope = await post(server, real.cyclonedx, '', 'application/json', noScope);
    expect([asFree.status, asNoScope.status]).toEqual([403, 403]);
    const repositories = await fetch(`${server.url}/v1/repositories/verify`, {
      method: 'POST',
      headers: { authorization: `Bearer ${free}`, 'content-type': 'application/json' },
      body: JSON.stringify({ lockfiles: [{ path: 'requirements.txt', content: 'a==1\n' }] }),
    });
    expect(asFree.body).toEqual(await repositories.json());
  });
});
