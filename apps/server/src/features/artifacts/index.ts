// Artifacts: customer uploads and their read model, registering and storing artifacts, reference
// claims, archive reading, package facts and provenance (docs/artifacts.md, docs/package-facts.md).
// The rest of the server imports this feature through this file only (docs/contributing.md).
export { archiveFormatOf } from './archive/archive-listing.js';
export { type TarEntry, tarGz } from './archive/tar-gz.js';
export { artifactPublicId, artifactRowId, verifyReferencesWithFindings } from './customer-artifacts.js';
export { type PackageFacts, type RegistryProvenance } from './facts/package-facts.js';
export { artifactFacts } from './facts/stored-package-facts.js';
export { countedClaims, type ReferenceView, referenceViewOf, TRUSTED_CLAIMS_ONLY, visibleArtifact } from './references/reference-claims.js';
export { registerArtifact } from './register-artifact.js';
export { storeArtifact } from './store-artifact.js';
export { uploadArtifact } from './customer-artifacts.js';
export { type ReferenceFetches } from './references/reference-fetches.js';
export { type PendingReference } from './references/reference-fetches.js';
export { keepRegistryProvenance, type RegistryProvenanceOutcome } from './provenance/artifact-provenance.js';
export { artifactsCommands as commands } from './artifacts-commands.js';
export { artifactsRouteEntries as routes } from './artifacts-route-entries.js';
