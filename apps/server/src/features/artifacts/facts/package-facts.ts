/** What an artifact's archive declares, as a policy rule reads it (docs/package-facts.md). */
export type RegistryProvenance = 'verified' | 'absent';

export interface PackageFacts {
  /** The declared license as an SPDX expression (package.json `license`, core metadata `License-Expression` or `License`); null when the artifact declares none. */
  license: string | null;
  /** Lifecycle scripts the package declares that run on install (`preinstall`, `install`, `postinstall`, …). */
  install_scripts: string[];
  /** Whether a registry provenance bundle (Sigstore) that verifies against the artifact's bytes is attached. */
  registry_provenance: RegistryProvenance;
  /** When the registry published this version, in ms since the epoch, when known. */
  published_at: number | null;
}
