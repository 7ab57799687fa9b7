import { McpServer, ResourceTemplate, type RegisteredResource, type RegisteredResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, ReadResourceRequestSchema, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { VigilApiError, type Dated, type Vigil } from '@vigil/client';
import { DEFAULT_POLICY_ID, DEFAULT_POLICY_NAME, formatOffsetTimestamp, PolicyName, type Policy } from '@vigil/core';
import { faultMessage } from './faults.js';
import { checkReference } from './package-check.js';
import { hasUnprintable, MAX_DETAIL_CHARS, printable } from './printable.js';
import { ToolInputError, type ToolCall } from './tool-result.js';
import { explainVerdict } from './tools/explain-verdict.js';
import { VERDICT_GUIDE } from './verdict-guide.js';

/** The MCP error code for a resource that does not exist (MCP specification, "Resources": error handling). */
export const RESOURCE_NOT_FOUND = -32002;

export const GUIDE_URI = 'vigil://guide/reading-verdicts';
export const POLICIES_URI = 'vigil://policies';
export const VERDICT_URI_TEMPLATE = 'vigil://verdict/{purl}';
export const POLICY_URI_TEMPLATE = 'vigil://policy/{name}';

const EVERY_RESOURCE = `${GUIDE_URI}, ${POLICIES_URI}, ${VERDICT_URI_TEMPLATE} (the purl percent-encoded) and ${POLICY_URI_TEMPLATE}`;

export interface ResourceContext {
  /** The SDK client; throws a ToolInputError without an API key. */
  vigil(): Vigil;
  baseUrl: string;
  /** Removes the API key from a text (docs/mcp.md, "The API key"). */
  redact(text: string): string;
  /** Runs a read under the call deadline (as a tool call): rejects with a CallDeadlineError past it. */
  run<T>(clientSignal: AbortSignal, work: (call: ToolCall) => Promise<T>): Promise<T>;
}

/**
 * A URI as an error message quotes it: redacted and at most 500 characters; one with control,
 * escape or bidi characters as a JSON string with those escaped (`\u001b`, `\u202e`), so it cannot
 * redraw a terminal or reorder the text around it.
 */
function shown(ctx: ResourceContext, uri: string): string {
  const redacted = ctx.redact(uri);
  if (!hasUnprintable(redacted)) return printable(redacted);
  const chars = [...redacted];
  const cut = chars.length > MAX_DETAIL_CHARS ? chars.slice(0, MAX_DETAIL_CHARS).join('') : redacted;
  // JSON.stringify escapes C0 controls; C1, bidi and zero-width characters are escaped here.
  return JSON.stringify(cut).replace(/[\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** One percent-encoded path segment of a URI template, decoded; malformed encoding is a bad argument. */
function segment(variables: Record<string, string | string[]>, name: string, template: string): string {
  const raw = variables[name];
  const value = Array.isArray(raw) ? raw.join(',') : (raw ?? '');
  try {
    return decodeURIComponent(value);
  } catch {
    throw new ToolInputError(`${template}: {${name}} is not valid percent-encoding (encode it with encodeURIComponent)`);
  }
}

/** A policy as the resources give it: the wire's field names and timestamps. */
function policyJson(policy: Dated<typeof Policy>): Record<string, unknown> {
  return { ...policy, created_at: formatOffsetTimestamp(policy.created_at), updated_at: formatOffsetTimestamp(policy.updated_at) };
}

function policyText(policy: Dated<typeof Policy>): string {
  const lines = [
    `Policy ${policy.name} (${policy.id}, version ${policy.version}${policy.builtin ? ', the built-in policy' : ''}, saved ${formatOffsetTimestamp(policy.updated_at)})${policy.description ? `: ${policy.description}` : ''}`,
    `Rules, in evaluation order (${policy.rules.length}):`,
    ...policy.rules.map((r) => `- ${r.name} [${r.action}]: ${r.expression}${r.description ? ` (${r.description})` : ''}`),
    `A package is judged against it by POST /v1/policies/evaluate with policy "${policy.name}" (docs/policies.md).`,
  ];
  return lines.join('\n');
}

/** The calling account's policy of that name: `default` is the built-in one; others are the organization's. */
async function policyNamed(vigil: Vigil, name: string, signal: AbortSignal): Promise<Dated<typeof Policy>> {
  if (name === DEFAULT_POLICY_NAME) return vigil.policies.get(DEFAULT_POLICY_ID, { signal });
  for await (const policy of vigil.policies.list({ signal, pageSize: 100 })) if (policy.name === name) return policy;
  throw new McpError(RESOURCE_NOT_FOUND, `${POLICY_URI_TEMPLATE}: the account has no policy named "${name}" (${POLICIES_URI} lists them; "default" is the built-in policy)`);
}

/** The JSON and the text of one resource, both under its URI. */
function contents(uri: string, text: string, json: unknown): ReadResourceResult {
  return {
    contents: [
      { uri, mimeType: 'text/plain', text },
      { uri, mimeType: 'application/json', text: JSON.stringify(json, null, 2) },
    ],
  };
}

/**
 * Vigil's resources (docs/mcp.md, "Resources"): the verdict guide, the account's policies, and the
 * templates `vigil://verdict/{purl}` and `vigil://policy/{name}`. They are registered through the
 * SDK (resources/list, resources/templates/list); resources/read is answered by a handler of ours
 * that dispatches to the same registrations, so that a URI the SDK cannot parse or match gets an
 * error saying which URIs exist, and every answer and error passes the key filter.
 */
export function registerResources(server: McpServer, ctx: ResourceContext): void {
  const guide = server.registerResource(
    'reading_verdicts',
    GUIDE_URI,
    {
      title: 'How to read a Vigil verdict',
      description: 'What ALLOW, WARN, BLOCK and pending mean, what an ALLOW does not prove, and how to check a verdict without trusting Vigil',
      mimeType: 'text/markdown',
    },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: VERDICT_GUIDE }] }),
  );

  const policies = server.registerResource(
    'policies',
    POLICIES_URI,
    {
      title: "The account's policies",
      description: "The policies the API key's account can evaluate packages against: the built-in default, and an organization's own (needs the policies scope)",
      mimeType: 'application/json',
    },
    (uri, extra) =>
      ctx.run(extra.signal, async ({ signal }) => {
        const vigil = ctx.vigil();
        const own: Dated<typeof Policy>[] = [];
        for await (const policy of vigil.policies.list({ signal, pageSize: 100 })) own.push(policy);
        const builtin = await vigil.policies.get(DEFAULT_POLICY_ID, { signal });
        const all = [builtin, ...own];
        const text = [`Policies (${all.length}); read one as ${POLICY_URI_TEMPLATE}:`, ...all.map((p) => `- ${p.name} (${p.id}, version ${p.version}, ${p.rules.length} rules)${p.builtin ? ' built-in' : ''}${p.description ? `: ${p.description}` : ''}`)].join('\n');
        return contents(uri.href, text, { policies: all.map((p) => ({ name: p.name, id: p.id, version: p.version, builtin: p.builtin, description: p.description, rules: p.rules.length, uri: `vigil://policy/${encodeURIComponent(p.name)}` })) });
      }),
  );

  const verdict = server.registerResource(
    'verdict',
    new ResourceTemplate(VERDICT_URI_TEMPLATE, { list: undefined }),
    {
      title: "A package's published verdict",
      description: "Vigil's published verdict of one package version with its findings and the attestations behind it (as explain_verdict). {purl}: the purl or npm:/pypi: short form, percent-encoded (encodeURIComponent), e.g. vigil://verdict/pkg%3Anpm%2Fleft-pad%401.3.0",
      mimeType: 'application/json',
    },
    (uri, variables, extra) =>
      ctx.run(extra.signal, async (call) => {
        const ref = checkReference('{purl}', segment(variables, 'purl', VERDICT_URI_TEMPLATE));
        const { text, structured } = await explainVerdict(ctx.vigil(), { package: ref }, call);
        return contents(uri.href, text, structured);
      }),
  );

  const policy = server.registerResource(
    'policy',
    new ResourceTemplate(POLICY_URI_TEMPLATE, { list: undefined }),
    {
      title: "One of the account's policies",
      description: 'A policy by name, current version, with its rules in evaluation order: "default" is the built-in policy, any other name one of the organization\'s (needs the policies scope)',
      mimeType: 'application/json',
    },
    (uri, variables, extra) =>
      ctx.run(extra.signal, async ({ signal }) => {
        const name = segment(variables, 'name', POLICY_URI_TEMPLATE);
        const parsed = PolicyName.safeParse(name);
        if (!parsed.success) throw new ToolInputError(`${POLICY_URI_TEMPLATE}: ${JSON.stringify(printable(name, 100))} is not a policy name: ${parsed.error.issues[0]!.message}`);
        const found = await policyNamed(ctx.vigil(), name, signal);
        return contents(uri.href, policyText(found), policyJson(found));
      }),
  );

  const fixed = new Map<string, RegisteredResource>([
    [GUIDE_URI, guide],
    [POLICIES_URI, policies],
  ]);
  const templates: [string, RegisteredResourceTemplate][] = [
    [VERDICT_URI_TEMPLATE, verdict],
    [POLICY_URI_TEMPLATE, policy],
  ];

  server.server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const asked = request.params.uri;
    try {
      if (!URL.canParse(asked)) throw new McpError(ErrorCode.InvalidParams, `resources/read: ${shown(ctx, asked)} is not a URI; Vigil's resources are ${EVERY_RESOURCE}`);
      const uri = new URL(asked);
      const resource = fixed.get(uri.href);
      if (resource) return await resource.readCallback(uri, extra);
      for (const [template, registered] of templates) {
        const variables = registered.resourceTemplate.uriTemplate.match(uri.href);
        if (variables) return await registered.readCallback(uri, variables, extra);
        // `vigil://verdict/pkg:npm/a@1`: the purl's slash makes it two segments.
        const prefix = template.slice(0, template.indexOf('{'));
        if (uri.href.startsWith(prefix)) throw new McpError(ErrorCode.InvalidParams, `${shown(ctx, asked)}: expected ${template} with one path segment after ${prefix}: percent-encode it with encodeURIComponent (e.g. vigil://verdict/pkg%3Anpm%2Fleft-pad%401.3.0)`);
      }
      throw new McpError(RESOURCE_NOT_FOUND, `Resource ${shown(ctx, asked)} not found; Vigil's resources are ${EVERY_RESOURCE}`);
    } catch (err) {
      throw resourceError(err, ctx);
    }
  });
}

/**
 * Any failure of a read as an MCP error (JSON-RPC error of resources/read, not a result): a bad
 * URI or argument is -32602, a resource that does not exist -32002 (an API 404 too), anything else
 * -32603 with the message a tool error would give (docs/mcp.md, "Errors"). Never with the key.
 */
function resourceError(err: unknown, ctx: ResourceContext): McpError {
  // McpError prefixes "MCP error <code>: " to its message; the wire carries the message without it.
  const bare = (e: McpError) => e.message.replace(/^MCP error -?\d+: /, '');
  if (err instanceof McpError) return new McpError(err.code, ctx.redact(bare(err)));
  if (err instanceof ToolInputError) return new McpError(ErrorCode.InvalidParams, ctx.redact(err.message));
  const message = faultMessage(err, ctx.baseUrl, ctx.redact);
  if (err instanceof VigilApiError && err.status === 404) return new McpError(RESOURCE_NOT_FOUND, ctx.redact(message));
  return new McpError(ErrorCode.InternalError, ctx.redact(message));
}
