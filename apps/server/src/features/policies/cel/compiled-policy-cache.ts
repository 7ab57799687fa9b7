import { compilePolicy, type CompiledPolicy, type PolicyDefinition } from './compile-policy.js';

/**
 * Compiled policies by (id, version) and rules: a saved version never changes, so it never goes
 * stale; the rules are part of the key so that two definitions never share one compiled form.
 */
const compiled = new Map<string, CompiledPolicy>();
const MAX_COMPILED = 500;

/** The compiled form of a policy version, compiled once per process (until evicted, oldest first). */
export function compiledPolicy(definition: PolicyDefinition): CompiledPolicy {
  const key = JSON.stringify([definition.id, definition.version, definition.rules.map((r) => [r.name, r.action, r.expression])]);
  const known = compiled.get(key);
  if (known) return known;
  const fresh = compilePolicy(definition);
  if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value!);
  compiled.set(key, fresh);
  return fresh;
}
