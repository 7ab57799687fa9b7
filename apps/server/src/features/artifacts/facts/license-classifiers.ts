/**
 * Trove license classifiers that name exactly one SPDX license. Classifiers that leave the version
 * or the variant open (`Apache Software License`, `BSD License`, `GNU General Public License (GPL)`,
 * `GNU General Public License v3 (GPLv3)`, which does not say "only" or "or later") are not here:
 * a package that declares only those has no license the facts can state.
 */
const SPDX_BY_CLASSIFIER: Readonly<Record<string, string>> = {
  'License :: OSI Approved :: MIT License': 'MIT',
  'License :: OSI Approved :: MIT No Attribution License (MIT-0)': 'MIT-0',
  'License :: OSI Approved :: ISC License (ISCL)': 'ISC',
  'License :: OSI Approved :: Mozilla Public License 1.1 (MPL 1.1)': 'MPL-1.1',
  'License :: OSI Approved :: Mozilla Public License 2.0 (MPL 2.0)': 'MPL-2.0',
  'License :: OSI Approved :: GNU General Public License v2 or later (GPLv2+)': 'GPL-2.0-or-later',
  'License :: OSI Approved :: GNU General Public License v3 or later (GPLv3+)': 'GPL-3.0-or-later',
  'License :: OSI Approved :: GNU Lesser General Public License v2 or later (LGPLv2+)': 'LGPL-2.0-or-later',
  'License :: OSI Approved :: GNU Lesser General Public License v3 or later (LGPLv3+)': 'LGPL-3.0-or-later',
  'License :: OSI Approved :: GNU Affero General Public License v3 or later (AGPLv3+)': 'AGPL-3.0-or-later',
  'License :: OSI Approved :: The Unlicense (Unlicense)': 'Unlicense',
  'License :: OSI Approved :: Boost Software License 1.0 (BSL-1.0)': 'BSL-1.0',
  'License :: OSI Approved :: Eclipse Public License 2.0 (EPL-2.0)': 'EPL-2.0',
  'License :: OSI Approved :: European Union Public Licence 1.2 (EUPL 1.2)': 'EUPL-1.2',
  'License :: OSI Approved :: Universal Permissive License (UPL)': 'UPL-1.0',
  'License :: OSI Approved :: zlib/libpng License': 'Zlib',
  'License :: CC0 1.0 Universal (CC0 1.0) Public Domain Dedication': 'CC0-1.0',
};

/**
 * The SPDX id of a package's license classifiers when they name exactly one license and it is in the
 * table above; null otherwise (none, several, or one the table leaves out). The bare
 * `License :: OSI Approved` says nothing of which license and is ignored.
 */
export function licenseFromClassifiers(classifiers: readonly string[]): string | null {
  const named = [...new Set(classifiers.map((c) => c.trim().replace(/\s*::\s*/g, ' :: ')))].filter(
    (c) => c.startsWith('License ::') && c !== 'License :: OSI Approved',
  );
  if (named.length !== 1) return null;
  return SPDX_BY_CLASSIFIER[named[0]!] ?? null;
}
