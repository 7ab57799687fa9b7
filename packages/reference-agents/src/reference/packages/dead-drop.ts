/**
 * A "dead drop": the next stage's address or code is kept where the attacker can change it and no
 * one takes it down, and the package reads it from there before evaluating code. GlassWorm (OpenVSX
 * and VS Code extensions, October 2025) read its server's address from the memo of a Solana
 * transaction and, as a fallback, from the title of a Google Calendar event; other loaders use paste
 * sites and Ethereum transactions. Reading a chain or a calendar is ordinary; evaluating code built
 * at run time is not, and the two in one file are the loader. Judged on what the file reads (a
 * transaction, its memo or input; a calendar event; a raw paste) and that it evaluates a value that
 * is not a constant.
 */
import type { CodeFacts } from '../code/code-facts.js';
import { EVAL_CALLEE } from './code-findings.js';

/** Where dead drops are read: chain RPC methods that return transactions or memos, explorers' transaction APIs, calendar events, raw pastes. */
const DEAD_DROP = /\b(?:getSignaturesForAddress|getConfirmedSignaturesForAddress2|getTransaction|getParsedTransaction|eth_getTransactionByHash|eth_getTransactionReceipt|eth_getStorageAt)\b|api\.trongrid\.io\/v1\/accounts|blockstream\.info\/api\/(?:tx|address)|\/api\?module=account&action=txlist|calendar\.app\.google\b|calendar\.google\.com\/calendar|googleapis\.com\/calendar\/v3|pastebin\.com\/raw|paste\.ee\/r\/|rentry\.(?:co|org)\/[\w-]+\/raw|ghostbin\.\w+\/\w+\/raw|dpaste\.(?:com|org)\/\w+\/raw/;

export interface DeadDrop {
  line: number;
  source: string;
  sink: string;
}

/** The file's dead-drop read and the evaluation of run-time code it feeds, or null. */
export function deadDrop(facts: CodeFacts): DeadDrop | null {
  const read = facts.strings.find((s) => DEAD_DROP.test(s.value));
  if (read === undefined) return null;
  // `new Function(code)`, `eval(x)`, `vm.runInThisContext(x)` of a value the reader cannot fold that
  // was received or decoded at run time (a template compiled with `new Function` is neither).
  const sink = facts.calls.find((c) => EVAL_CALLEE.test(c.callee) && !/^(?:exec|compile|execfile)$/.test(c.callee) && c.args.length > 0 && c.args[c.args.length - 1] === null && c.argLabels.some((l) => l === 'remote' || l === 'decoded'));
  if (sink === undefined) return null;
  return { line: sink.line, source: DEAD_DROP.exec(read.value)![0], sink: sink.callee };
}
