import type { AgentFinding, Severity } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { lineLocator } from '../text/line-locator.js';
import { squattedManifestEntries, type DependencyOrder } from '../text/dependency-orders.js';

/**
 * Findings for the packages a document or a script has the agent install or add. A name imitating a
 * popular package: HIGH, CRIT when it is to reach every project the agent touches or the user is not
 * to be told (a worm's dependency, not a typo). A source off the registry added to the user's
 * projects: CRIT hidden from the user, or spread to every project unpinned (whoever controls the
 * branch or host then controls every project); HIGH spread pinned, or added to one project from a
 * host that is no known forge; MED from a forge unpinned; nothing pinned to a tag or commit on a forge
 * (a tutorial's `uv add git+https://github.com/…@v1.0`). One finding per kind and file, the most severe.
 */
export function dependencyFindings(file: string, text: string, orders: readonly DependencyOrder[], subject: 'instruction' | 'script'): AgentFinding[] {
  const lineAt = lineLocator(text);
  const best = new Map<string, AgentFinding>();
  const rank: Record<Severity, number> = { LOW: 0, MED: 1, HIGH: 2, CRIT: 3 };
  for (const o of orders) {
    let severity: Severity;
    let title: string;
    if (o.kind === 'typosquat') {
      severity = o.spread || o.concealed ? 'CRIT' : 'HIGH';
      if (subject === 'script') title = severity === 'CRIT' ? 'script adds a package whose name imitates a popular one to every project it finds' : 'script installs a package whose name imitates a popular one';
      else title = severity === 'CRIT' ? 'instruction to add a package whose name imitates a popular one to every project or without telling the user' : 'instruction to install a package whose name imitates a popular one';
    } else {
      // (round s30 review) The organisation's own package index, told openly, is no squat.
      if (o.internal === true && !o.concealed) continue;
      if (o.concealed || (o.spread && !o.pinned)) severity = 'CRIT';
      else if (o.spread || o.forge !== true) severity = 'HIGH';
      else if (!o.pinned) severity = 'MED';
      else continue;
      title = subject === 'script' ? 'script adds a dependency from outside the package registry to every project it finds' : "instruction to add a dependency from outside the package registry to the user's projects";
    }
    const kind = o.kind;
    const prior = best.get(kind);
    if (prior !== undefined && rank[prior.severity] >= rank[severity]) continue;
    best.set(kind, referenceFinding({ category: 'supply_chain', severity, title, file, line: lineAt(o.offset), evidence: o.evidence }));
  }
  return [...best.values()];
}

/** A look-alike of a popular package in a dependency manifest the skill ships: its setup installs it (HIGH). */
export function manifestSquatFindings(path: string, text: string): AgentFinding[] {
  const entry = squattedManifestEntries(path, text)[0];
  if (entry === undefined) return [];
  return [referenceFinding({ category: 'supply_chain', severity: 'HIGH', title: 'skill’s dependency manifest lists a package whose name imitates a popular one', file: path, line: entry.line, evidence: `${entry.name} (imitates ${entry.match.imitates}: ${entry.match.how})` })];
}
