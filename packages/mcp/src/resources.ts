import { McpServer, ResourceTemplate, type RegisteredResource, type RegisteredResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, ReadResourceRequestSchema, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { VigilApiError, type Dated, type Vigil } from '@vigil/client';
import * as z from 'zod';
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

/** PolicyName's limit (@vigil/core). */
const MAX_POLICY_NAME_CHARS = 100;

/** What a template's one-segment error gives as an example. */
const TEMPLATE_EXAMPLE: Record<string, string> = {
  [VERDICT_URI_TEMPLATE]: 'vigil://verdict/pkg%3Anpm%2Fleft-pad%401.3.0',
  [POLICY_URI_TEMPLATE]: 'vigil://policy/default',
};

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

/**
 * The SDK's McpError with `message` as written: its constructor prefixes `MCP error <code>: `, and
 * the SDK puts `error.message` on the wire, where a client prefixes it again.
 */
export function mcpError(code: number, message: string): McpError {
  const error = new McpError(code, message);
  error.message = message;
  return error;
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

/**
 * Why `name` is not a policy name, quoting it: redacted before it is cut to 100 characters (a cut
 * first could leave part of the key behind); a name too long says the limit, not zod's wording.
 */
function policyNameProblem(ctx: ResourceContext, name: string, issue: { code: string }): string {
  const quoted = JSON.stringify(printable(ctx.redact(name), MAX_POLICY_NAME_CHARS));
  if (issue.code === 'too_big') return `${quoted} is not a policy name: expected at most ${MAX_POLICY_NAME_CHARS} characters, got ${[...name].length}`;
  return `${quoted} is not a policy name: expected a policy name of letters, digits, ".", "_" or "-"`;
}

/** The calling account's policy of that name: `default` is the built-in one; others are the organization's. */
async function policyNamed(vigil: Vigil, name: string, signal: AbortSignal): Promise<Dated<typeof Policy>> {
  if (name === DEFAULT_POLICY_NAME) return vigil.policies.get(DEFAULT_POLICY_ID, { signal });
  for await (const policy of vigil.policies.list({ signal, pageSize: 100 })) if (policy.name === name) return policy;
  throw mcpError(RESOURCE_NOT_FOUND, `${POLICY_URI_TEMPLATE}: the account has no policy named "${name}" (${POLICIES_URI} lists them; "default" is the built-in policy)`);
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
 * resources/read as the SDK routes it, with `params` checked by the handler: a missing or
 * non-string `uri` is -32602 with a sentence, as JSON-RPC has it for invalid params.
 */
const ReadRequestSchema = z.object({ method: z.literal(ReadResourceRequestSchema.shape.method.value), params: z.looseObject({ uri: z.unknown().optional() }).optional() });

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
        if (!parsed.success) throw new ToolInputError(`${POLICY_URI_TEMPLATE}: ${policyNameProblem(ctx, name, parsed.error.issues[0]!)}`);
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

  server.server.setRequestHandler(ReadRequestSchema, async (request, extra) => {
    const asked = request.params?.uri;
    // Which resource a fault of the API is about, for the message (docs/mcp.md, "Resources").
    const about = typeof asked === 'string' && matchable(asked).startsWith('vigil://polic') ? 'policy' : 'verdict';
    try {
      // The SDK's own schema would fail a non-string `uri` with a raw zod dump as -32603.
      if (typeof asked !== 'string') throw mcpError(ErrorCode.InvalidParams, `resources/read: params.uri must be a string (a URI), got ${asked === undefined ? 'none' : typeof asked}; Vigil's resources are ${EVERY_RESOURCE}`);
      if (!URL.canParse(asked)) throw mcpError(ErrorCode.InvalidParams, `resources/read: ${shown(ctx, asked)} is not a URI; Vigil's resources are ${EVERY_RESOURCE}`);
      const raw = matchable(asked);
      const uri = new URL(raw);
      const resource = fixed.get(raw);
      if (resource) return await resource.readCallback(uri, extra);
      for (const [template, registered] of templates) {
        const prefix = template.slice(0, template.indexOf('{'));
        const variables = registered.resourceTemplate.uriTemplate.match(raw);
        if (variables) return await registered.readCallback(uri, variables, extra);
        // `vigil://verdict/pkg:npm/a@1`: the purl's slash makes it two segments.
        if (raw.startsWith(prefix)) throw mcpError(ErrorCode.InvalidParams, `${shown(ctx, asked)}: expected ${template} with one path segment after ${prefix}: percent-encode it with encodeURIComponent (e.g. ${TEMPLATE_EXAMPLE[template]})`);
      }
      throw mcpError(RESOURCE_NOT_FOUND, `Resource ${shown(ctx, asked)} not found; Vigil's resources are ${EVERY_RESOURCE}`);
    } catch (err) {
      throw resourceError(err, ctx, about);
    }
  });
}

/**
 * The URI as it is matched: scheme and host in lower case (RFC 3986: both are case-insensitive),
 * the path as written. `new URL` would also remove dot segments, turning `vigil://verdict/..` (or
 * `%2E%2E`) into `vigil://verdict/`; kept, `..` is the purl or policy name that gets refused.
 */
function matchable(asked: string): string {
  return asked.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/?#]*)/, (_, scheme: string, host: string) => `${scheme.toLowerCase()}${host.toLowerCase()}`);
}

/** What an API fault means for the resource read (a verdict's wording is that of the tools). */
const UNKNOWN: Record<'verdict' | 'policy', string | undefined> = {
  verdict: undefined,
  policy: 'No policy could be read; read it again later.',
};

/**
 * Any failure of a read as an MCP error (JSON-RPC error of resources/read, not a result): a bad
 * URI or argument is -32602, a resource that does not exist -32002 (an API 404 too), anything else
 * -32603 with the message a tool error would give (docs/mcp.md, "Errors"). Never with the key.
 * Each message is the bare one: McpError's own `MCP error <code>: ` prefix is the client's to add.
 */
function resourceError(err: unknown, ctx: ResourceContext, about: 'verdict' | 'policy'): McpError {
  const bare = (e: McpError) => e.message.replace(/^MCP error -?\d+: /, '');
  if (err instanceof McpError) return mcpError(err.code, ctx.redact(bare(err)));
  if (err instanceof ToolInputError) return mcpError(ErrorCode.InvalidParams, ctx.redact(err.message));
  const message = faultMessage(err, ctx.baseUrl, ctx.redact, UNKNOWN[about]);
  if (err instanceof VigilApiError && err.status === 404) return mcpError(RESOURCE_NOT_FOUND, ctx.redact(message));
  return mcpError(ErrorCode.InternalError, ctx.redact(message));
}
