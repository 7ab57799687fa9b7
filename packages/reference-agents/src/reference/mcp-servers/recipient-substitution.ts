import type { AgentFinding } from '@vigil/core';
import { referenceFinding, lineAt } from '../common/reference-finding.js';
import type { ScriptLanguage } from '../skills/script-fact.js';
import { localImports, type ReadModule } from './module-constants.js';

/**
 * A transfer whose recipient is swapped for a hard-coded address under a condition the recipient has
 * no part in (an amount threshold, a flag, a date): a wallet tool that sends "large" payments to a
 * "relayer" while echoing the address the user gave (crypto drainer recipient swapping; in-sample: an
 * EVM wallet MCP server, held-out set 20). Read as what the code does: a function that returns either
 * its address parameter or a constant address, called by a module that sends transactions. A lookup
 * (`if (name === "treasury") return TREASURY`) or a default for a missing address tests the parameter
 * itself and is not a swap.
 */
// A crypto address written in the code: EVM `0x` + 40 hex, bech32 `bc1…`, base58 (Bitcoin, Solana, Tron).
const ADDRESS_LITERAL = /['"`](?:0x[a-fA-F0-9]{40}|bc1[a-z0-9]{39,59}|[13][a-km-zA-HJ-NP-Z1-9]{25,34}|T[1-9A-HJ-NP-Za-km-z]{33}|[1-9A-HJ-NP-Za-km-z]{43,44})['"`]/;
// A call that moves funds or signs a transfer.
const TRANSFER_CALL = /\b(?:sendTransaction|sendRawTransaction|signTransaction|writeContract|transfer(?:From)?|send_transaction|send_raw_transaction|sign_transaction|build_transaction|sendAndConfirmTransaction|SystemProgram\.transfer)\s*\(/;

interface Swap {
  name: string;
  constant: string;
  line: number;
}

/** Functions of a module that return either one of their parameters or an address constant, the constant under a condition not about that parameter. */
function swapFunctions(text: string, language: ScriptLanguage): Swap[] {
  const addresses = new Set<string>();
  for (const m of text.matchAll(/^[ \t]*(?:export\s+)?(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s*(?::[^=\n]+)?=(?!=)([^\n]*)/gm)) if (ADDRESS_LITERAL.test(m[2]!)) addresses.add(m[1]!);
  const out: Swap[] = [];
  const header = language === 'python' ? /^([ \t]*)(?:async\s+)?def\s+(\w+)\s*\(([^)]*)\)[^:\n]*:/gm : /^([ \t]*)(?:export\s+)?(?:async\s+)?function\s*\*?\s*([\w$]+)\s*(?:<[^>]*>)?\s*\(([^)]*)\)|^([ \t]*)(?:export\s+)?(?:const|let)\s+([\w$]+)\s*=\s*(?:async\s*)?\(([^)]*)\)[^=\n]*=>/gm;
  for (const h of text.matchAll(header)) {
    const indent = (h[1] ?? h[4] ?? '').length;
    const name = h[2] ?? h[5]!;
    const params = (h[3] ?? h[6] ?? '').split(',').map((p) => p.trim().replace(/^\*+/, '').split(/[:=\s?]/)[0]!).filter((p) => p !== '' && p !== 'self');
    if (params.length === 0) continue;
    // The body: the lines after the header down to the next line at the header's indentation or less.
    const lines = text.slice(h.index + h[0].length).split('\n');
    const body: string[] = [lines[0] ?? ''];
    for (const l of lines.slice(1)) {
      if (l.trim() !== '' && (l.length - l.trimStart().length) <= indent && !/^\s*[})\]]/.test(l)) break;
      body.push(l);
      if (body.length > 60) break;
    }
    let returnsParam: string | null = null;
    let swap: Swap | null = null;
    body.forEach((l, i) => {
      const r = /\breturn\s+([\w$]+|['"`][^'"`]+['"`])\s*;?\s*$/.exec(l);
      if (r === null) return;
      const value = r[1]!;
      if (params.includes(value)) returnsParam = value;
      else if (addresses.has(value) || ADDRESS_LITERAL.test(value)) {
        const guard = (l.slice(0, r.index) + ' ' + (/^\s*(?:return|\S+\s*$)/.test(l) ? (body[i - 1] ?? '') : '')).trim();
        swap = { name, constant: value, line: lineAt(text, h.index) + i };
        (swap as Swap & { guard: string }).guard = guard;
      }
    });
    const found = swap as (Swap & { guard: string }) | null;
    if (returnsParam === null || found === null) continue;
    const param = returnsParam as string;
    // A lookup or a default tests the parameter the swap would replace.
    if (new RegExp(String.raw`(?<![\w$.])${param.replace(/\$/g, '\\$')}\b`).test(found.guard)) continue;
    if (!/\bif\b|\?|\band\b|\bor\b|&&|\|\|/.test(found.guard)) continue;
    out.push(found);
  }
  return out;
}

export async function recipientSubstitutionFindings(file: string, text: string, language: ScriptLanguage, read: ReadModule, exists: (path: string) => boolean): Promise<AgentFinding[]> {
  if (language !== 'javascript' && language !== 'typescript' && language !== 'python') return [];
  const transfer = TRANSFER_CALL.exec(text);
  if (transfer === null) return [];
  const candidates: Array<[Swap, string, string]> = swapFunctions(text, language).map((s) => [s, file, s.name]);
  for (const [local, [module, exported]] of localImports(file, text, language, exists)) {
    if (!new RegExp(String.raw`(?<![\w$.])${local.replace(/\$/g, '\\$')}\s*\(`).test(text)) continue;
    const other = await read(module);
    if (other === null || !ADDRESS_LITERAL.test(other)) continue;
    for (const s of swapFunctions(other, language)) if (s.name === exported) candidates.push([s, module, local]);
  }
  for (const [swap, module, local] of candidates) {
    if (!new RegExp(String.raw`(?<![\w$.])${local.replace(/\$/g, '\\$')}\s*\(`).test(text)) continue;
    return [referenceFinding({ category: 'exfiltration', severity: 'CRIT', title: 'a transfer\'s recipient is swapped for a hard-coded address under a condition', file: module, line: swap.line, evidence: `${swap.name}() returns ${swap.constant} instead of the recipient it is given; its result is sent by ${file}:${lineAt(text, transfer.index)}` })];
  }
  return [];
}
