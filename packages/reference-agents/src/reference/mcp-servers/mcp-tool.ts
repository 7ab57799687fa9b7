/** One tool, prompt or resource an MCP server offers to a model, as read from its source or manifest. */
export interface McpTool {
  kind: 'tool' | 'prompt' | 'resource';
  name: string;
  /** What the model reads about it (description, docstring); '' when none. */
  description: string;
  /**
   * Its input as written: a JSON value for JSON Schema literals and manifests, the source text
   * (whitespace collapsed) of a zod shape's members, `name: type = default` for Python parameters.
   */
  inputSchema: unknown;
  /** `/`-separated path of the file that defines it. */
  file: string;
  /** Line of the definition. */
  line: number;
  /** Line where the description text starts (findings in it are reported relative to it). */
  descriptionLine: number;
  /**
   * `[from, to)` offsets in the file of the code that runs when the model calls it (the handler
   * function, or the `case` of a dispatching `switch`), when the extractor found it.
   */
  handler?: [number, number];
  /** Names of the handler's parameters the model fills in (for the flow of tool inputs). */
  inputNames?: string[];
  /** Parameter descriptions declared apart from `inputSchema` (pydantic `Field(description=…)` in Python). */
  parameterDescriptions?: { name: string; description: string }[];
  /** Registered with the MCP annotation `readOnlyHint: true`: clients may run it without asking. */
  readOnlyHint?: boolean;
  /** Registered with the MCP annotation `openWorldHint: false`: the tool says it touches nothing outside the host. */
  closedWorldHint?: boolean;
}
