/**
 * Install-time Python code that loads a native library shipped in the package and so runs its code:
 * `ctypes.WinDLL(os.path.join(here, "helper.dll"))` in `setup.py` or a build hook. The Scavenger
 * loader (July 2025) reached Windows machines so, from `eslint-config-prettier` and `is` on npm
 * (`rundll32 node-gyp.dll,main`, judged by the system-binary rule) and from `num2words` on PyPI
 * (a DLL loaded through ctypes). A build checks for system libraries by name (`ctypes.CDLL("libc.so.6")`,
 * `find_library`); loading a file the package itself carries, while it installs, is running its binary.
 */
import type { CodeFacts } from '../code/code-facts.js';

/** ctypes' loaders: the classes and the `LoadLibrary` of their loader objects. */
const CTYPES_LOAD = /^(?:ctypes\.)?(?:WinDLL|CDLL|OleDLL|PyDLL|windll\.LoadLibrary|cdll\.LoadLibrary|oledll\.LoadLibrary|windll\.kernel32\.LoadLibrary[AW]?|cdll\.\?|windll\.\?)$|^ctypes\.(?:windll|cdll|oledll)\.LoadLibrary$/;
const LIBRARY_FILE = /\.(?:dll|so|dylib|pyd)$/i;

export interface NativeLibraryLoad {
  line: number;
  callee: string;
  library: string;
}

/**
 * The first ctypes load of a library the package ships (`shipped`: the base names of its native
 * files), or null.
 */
export function nativeLibraryLoad(facts: CodeFacts, shipped: ReadonlySet<string>): NativeLibraryLoad | null {
  for (const c of facts.calls) {
    if (!CTYPES_LOAD.test(c.callee)) continue;
    const names = [...c.argStrings, ...c.args.filter((a): a is string => a !== null), c.argPath ?? ''].map((s) => s.split(/[\\/]/).pop() ?? '').filter((s) => LIBRARY_FILE.test(s));
    const library = names.find((n) => shipped.has(n.toLowerCase()));
    if (library !== undefined) return { line: c.line, callee: c.callee, library };
  }
  return null;
}
