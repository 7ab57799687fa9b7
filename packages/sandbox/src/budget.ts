/** What one agent run may use (docs/agents.md, "Budget"). */
export interface AgentBudget {
  /** Wall-clock time from spawn to exit, in milliseconds. */
  wallMs: number;
  /** CPU time (user + system), in milliseconds. */
  cpuMs: number;
  /** Memory: the V8 heap cap and the resident-set cap, in bytes. */
  memoryBytes: number;
  /** Bytes the agent may print on stdout. */
  outputBytes: number;
}

export const DEFAULT_AGENT_BUDGET: Readonly<AgentBudget> = Object.freeze({
  wallMs: 60_000,
  cpuMs: 30_000,
  memoryBytes: 512 * 1024 * 1024,
  outputBytes: 1024 * 1024,
});

/** The smallest budget that still starts Node: below these an agent could never finish. */
export const MIN_AGENT_BUDGET: Readonly<AgentBudget> = Object.freeze({
  wallMs: 100,
  cpuMs: 100,
  memoryBytes: 64 * 1024 * 1024,
  outputBytes: 1024,
});

/** The defaults with the given fields replaced; throws RangeError naming a field that is not an integer at least its minimum. */
export function resolveAgentBudget(budget: Partial<AgentBudget> = {}): AgentBudget {
  const resolved = { ...DEFAULT_AGENT_BUDGET };
  for (const key of Object.keys(DEFAULT_AGENT_BUDGET) as (keyof AgentBudget)[]) {
    const value = budget[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < MIN_AGENT_BUDGET[key]) {
      throw new RangeError(`budget.${key}: must be an integer of at least ${MIN_AGENT_BUDGET[key]}, got ${String(value)}`);
    }
    resolved[key] = value;
  }
  return resolved;
}
