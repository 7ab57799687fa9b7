import { compilePolicy, type CompiledPolicy, type PolicyDefinition } from './compile-policy.js';

/** Compiled policies by (id, version): a version never changes once saved, so it never goes stale. */
const compiled = new Map<string, CompiledPolicy>();
const MAX_COMPILED = 500;

/** The compiled form of a policy version, compiled once per process (until evicted, oldest first). */
export function compiledPolicy(definition: PolicyDefinition): CompiledPolicy {
  const key = `${definition.id}@${definition.version}`;
  const known = compiled.get(key);
  if (known) return known;
  const fresh = compilePolicy(definition);
  if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value!);
  compiled.set(key, fresh);
  return fresh;
}
