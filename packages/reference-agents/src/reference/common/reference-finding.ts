import { LIMITS, type AgentFinding, type Severity } from '@vigil/core';

/** Cuts a text to what a finding field may hold, marking the cut. */
export function clipFindingText(text: string): string {
  const max = LIMITS.maxFindingTextLength;
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

export interface FindingSpec {
  category: string;
  severity: Severity;
  title: string;
  /** `/`-separated path relative to the artifact directory. */
  file: string;
  /** 1-based line. */
  line?: number | undefined;
  evidence?: string | undefined;
}

/** A static finding of a reference agent, with every text clipped to the attestation limits. */
export function referenceFinding(spec: FindingSpec): AgentFinding {
  const finding: AgentFinding = {
    type: 'static',
    category: clipFindingText(spec.category),
    severity: spec.severity,
    title: clipFindingText(spec.title),
    file: clipFindingText(spec.file),
  };
  if (spec.line !== undefined && Number.isInteger(spec.line) && spec.line >= 1) finding.line = spec.line;
  if (spec.evidence !== undefined && spec.evidence.trim() !== '') finding.evidence = clipFindingText(spec.evidence);
  return finding;
}

/** 1-based line of a character offset in a text. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
