import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';

/** Files a build system runs as shell: autoconf/automake macros and scripts, Makefiles, CMake, meson, node-gyp. */
export const BUILD_SYSTEM_FILE = /(?:^|\/)(?:[^/]+\.m4|configure(?:\.ac|\.in)?|Makefile(?:\.am|\.in)?|GNUmakefile|[^/]+\.mk|CMakeLists\.txt|[^/]+\.cmake|meson\.build|binding\.gyp|[^/]+\.gypi)$/;

// Output piped into a shell or eval: `| $SHELL`, `| sh`, `| bash`, `| eval …` (an `eval "$x"` of a
// configure variable alone is how autoconf works).
const RUNS = /\|\s*(?:\$\{?SHELL\}?|(?:\/bin\/)?(?:ba|z|da)?sh|eval)\b/;
// A decoding or byte-translating step: an unpacker's -d, base64/openssl decoding, `tr` between two
// sets, byte ranges cut out with head/tail/dd, or a decoder named through a variable (`$x -d`).
const DECODES = /\b(?:xz|lzma|unxz|gzip|gunzip|bzip2|zstd|base64|openssl\s+enc)\b[^\n]*\s-d\b|\$\{?\w+\}?\s+-d\b|\buudecode\b|\btr\s+["'][^"'\n]*\\[tn0-7][^"'\n]*["']\s+["']|\b(?:head|tail)\s+-c\s*\+?\d+|\bdd\b[^\n]*\b(?:skip|bs)=/;
// Reading files as data: a test fixture or archive by path, or `grep -a` searching files for a marker.
const READS_DATA = /\btests?\/(?:files|data|fixtures)\b|\.(?:xz|lzma|gz|bz2|zst|bin|dat)\b|\bgrep\s+-[A-Za-z]*a[A-Za-z]*\b/;

/**
 * A build file that decodes data files and runs the result (the xz-utils backdoor of 2024: an m4
 * macro found a "test" archive, translated its bytes with `tr`, unpacked it and piped it to the
 * shell during `./configure`). A build decodes nothing it then executes; generated code is written
 * to files that the build compiles, not handed to a shell. Reported once per file, at the line
 * that runs it.
 */
export function buildDecodeRunFinding(file: string, text: string, subject: string): AgentFinding | null {
  if (text.length > 2_000_000 || !RUNS.test(text) || !DECODES.test(text) || !READS_DATA.test(text)) return null;
  const lines = text.split('\n');
  const index = lines.findIndex((l) => !/^\s*(?:#|dnl\b)/.test(l) && RUNS.test(l));
  if (index < 0) return null;
  const decode = lines.find((l) => !/^\s*(?:#|dnl\b)/.test(l) && DECODES.test(l));
  if (decode === undefined) return null;
  return referenceFinding({
    category: 'malware',
    severity: 'CRIT',
    title: `${subject} decodes data files and runs the result in a shell (build-time backdoor)`,
    file,
    line: index + 1,
    evidence: `${decode.trim().slice(0, 160)} … ${lines[index]!.trim().slice(0, 160)}`,
  });
}
