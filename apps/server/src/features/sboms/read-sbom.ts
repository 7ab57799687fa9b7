import { CYCLONEDX_VERSIONS_READ, MAX_SBOM_COMPONENTS, SPDX_VERSIONS_READ, type SbomDocumentInfo } from '@vigil/core';
import { VigilError } from '../../platform/errors.js';

/** One component of an SBOM (the subject excluded), as the document gives it. */
export interface SbomComponent {
  /** `bom-ref` (CycloneDX) or `SPDXID` (SPDX), else the component's place in the document. */
  ref: string;
  name: string | null;
  version: string | null;
  purl: string | null;
  /** A direct dependency of the subject; null when the document records no dependency graph. */
  direct: boolean | null;
  /** Development-only, where the document says so; null when it does not. */
  dev: boolean | null;
}

export interface ReadSbom {
  info: SbomDocumentInfo;
  components: SbomComponent[];
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function malformed(path: string, what: string): VigilError {
  return new VigilError('sbom_malformed', `${path}: ${what}`);
}

/** An optional string field: absent or null is null; anything else but a string is malformed. */
function optionalString(object: Json, key: string, path: string): string | null {
  const value = object[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw malformed(path === '' ? key : `${path}.${key}`, 'expected a string');
  return value;
}

function optionalArray(object: Json, key: string, path: string): unknown[] {
  const value = object[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw malformed(path === '' ? key : `${path}.${key}`, 'expected an array');
  return value;
}

function tooLarge(): VigilError {
  return new VigilError('sbom_too_large', `components: more than ${MAX_SBOM_COMPONENTS} components (nested ones counted); Vigil reads at most ${MAX_SBOM_COMPONENTS} per SBOM`);
}

/**
 * Reads a posted SBOM: which specification and version it is, and its components with their purls.
 * Only what verification needs is checked (the fields read must have their types); everything else a
 * document carries is left alone, so a real generator's output is read whatever extensions it adds.
 * A refusal names the field at fault: `components[3].purl: expected a string`.
 */
export function readSbom(document: Json): ReadSbom {
  if ('bomFormat' in document) return readCycloneDx(document);
  if ('spdxVersion' in document) return readSpdx(document);
  // SPDX 3 is JSON-LD: no `spdxVersion`, a `@context` naming the SPDX 3 vocabulary.
  const context = document['@context'];
  if (typeof context === 'string' && /spdx\.org\/rdf\/3/i.test(context)) {
    throw new VigilError('sbom_version_unsupported', `@context: SPDX 3 is not read (Vigil reads ${SPDX_VERSIONS_READ.join(', ')} JSON)`);
  }
  throw new VigilError(
    'sbom_unsupported',
    `body: not an SBOM Vigil reads: expected a CycloneDX ${CYCLONEDX_VERSIONS_READ.join(' or ')} JSON document ("bomFormat": "CycloneDX") or an SPDX 2.3 JSON document ("spdxVersion": "SPDX-2.3")`,
  );
}

function readCycloneDx(document: Json): ReadSbom {
  if (document.bomFormat !== 'CycloneDX') throw new VigilError('sbom_unsupported', `bomFormat: expected "CycloneDX", got ${JSON.stringify(document.bomFormat)}`);
  const specVersion = document.specVersion;
  // A missing or non-string version is a malformed document, not a version Vigil does not read (`1.5` as a number names no version).
  if (typeof specVersion !== 'string') throw malformed('specVersion', 'expected a string');
  if (!(CYCLONEDX_VERSIONS_READ as readonly string[]).includes(specVersion)) {
    throw new VigilError('sbom_version_unsupported', `specVersion: CycloneDX ${specVersion} is not read (Vigil reads ${CYCLONEDX_VERSIONS_READ.join(' and ')})`);
  }
  const metadata = document.metadata;
  if (metadata !== undefined && metadata !== null && !isObject(metadata)) throw malformed('metadata', 'expected an object');
  const subject = isObject(metadata) ? metadata.component : undefined;
  if (subject !== undefined && subject !== null && !isObject(subject)) throw malformed('metadata.component', 'expected an object');
  const subjectRef = isObject(subject) ? optionalString(subject, 'bom-ref', 'metadata.component') : null;

  // The subject's direct dependencies, where the document records its dependency graph.
  let direct: Set<string> | null = null;
  optionalArray(document, 'dependencies', '').forEach((entry, index) => {
    const path = `dependencies[${index}]`;
    if (!isObject(entry)) throw malformed(path, 'expected an object');
    const ref = optionalString(entry, 'ref', path);
    if (ref === null) throw malformed(`${path}.ref`, 'expected a string');
    const dependsOn = optionalArray(entry, 'dependsOn', path);
    dependsOn.forEach((target, at) => {
      if (typeof target !== 'string') throw malformed(`${path}.dependsOn[${at}]`, 'expected a string');
    });
    if (subjectRef !== null && ref === subjectRef) direct = new Set([...(direct ?? []), ...(dependsOn as string[])]);
  });
  const directOf = (ref: string): boolean | null => (direct === null ? null : (direct as Set<string>).has(ref));

  const components: SbomComponent[] = [];
  const walk = (list: unknown[], prefix: string) => {
    list.forEach((entry, index) => {
      const path = `${prefix}[${index}]`;
      if (!isObject(entry)) throw malformed(path, 'expected an object');
      if (components.length >= MAX_SBOM_COMPONENTS) throw tooLarge();
      const ref = optionalString(entry, 'bom-ref', path) ?? path;
      components.push({
        ref,
        name: optionalString(entry, 'name', path),
        version: optionalString(entry, 'version', path),
        purl: optionalString(entry, 'purl', path),
        direct: directOf(ref),
        dev: developmentOnly(entry, path),
      });
      walk(optionalArray(entry, 'components', path), `${path}.components`);
    });
  };
  walk(optionalArray(document, 'components', ''), 'components');
  return {
    info: {
      spec: 'cyclonedx',
      spec_version: specVersion,
      name: isObject(subject) ? optionalString(subject, 'name', 'metadata.component') : null,
      version: isObject(subject) ? optionalString(subject, 'version', 'metadata.component') : null,
      serial_number: optionalString(document, 'serialNumber', ''),
    },
    components,
  };
}

/**
 * CycloneDX has no field for "development-only"; the generators' property taxonomy does:
 * `cdx:npm:package:development` (cyclonedx-npm) says it of an npm package.
 */
function developmentOnly(component: Json, path: string): boolean | null {
  for (const [index, property] of optionalArray(component, 'properties', path).entries()) {
    if (!isObject(property)) throw malformed(`${path}.properties[${index}]`, 'expected an object');
    if (property.name === 'cdx:npm:package:development') return property.value === 'true';
  }
  return null;
}

/** SPDX relationship types that make the element a dependency of the related one (`A DEPENDENCY_OF B`). */
const DEPENDENCY_OF = new Set(['DEPENDENCY_OF', 'RUNTIME_DEPENDENCY_OF', 'BUILD_DEPENDENCY_OF', 'OPTIONAL_DEPENDENCY_OF', 'PROVIDED_DEPENDENCY_OF', 'DEV_DEPENDENCY_OF', 'TEST_DEPENDENCY_OF']);
const DEVELOPMENT_ONLY = new Set(['DEV_DEPENDENCY_OF', 'TEST_DEPENDENCY_OF']);

function readSpdx(document: Json): ReadSbom {
  const version = document.spdxVersion;
  if (typeof version !== 'string') throw malformed('spdxVersion', 'expected a string');
  if (!(SPDX_VERSIONS_READ as readonly string[]).includes(version)) {
    throw new VigilError('sbom_version_unsupported', `spdxVersion: ${version} is not read (Vigil reads ${SPDX_VERSIONS_READ.join(', ')})`);
  }
  const described = new Set<string>();
  optionalArray(document, 'documentDescribes', '').forEach((id, index) => {
    if (typeof id !== 'string') throw malformed(`documentDescribes[${index}]`, 'expected a string');
    described.add(id);
  });
  // Dependency edges as (dependency, dependent, development-only).
  const edges: { dependency: string; dependent: string; dev: boolean }[] = [];
  optionalArray(document, 'relationships', '').forEach((entry, index) => {
    const path = `relationships[${index}]`;
    if (!isObject(entry)) throw malformed(path, 'expected an object');
    const from = optionalString(entry, 'spdxElementId', path);
    const to = optionalString(entry, 'relatedSpdxElement', path);
    const type = optionalString(entry, 'relationshipType', path);
    if (from === null || to === null || type === null) return;
    if (type === 'DESCRIBES' && from === 'SPDXRef-DOCUMENT') described.add(to);
    else if (type === 'DESCRIBED_BY' && to === 'SPDXRef-DOCUMENT') described.add(from);
    else if (type === 'DEPENDS_ON') edges.push({ dependency: to, dependent: from, dev: false });
    else if (DEPENDENCY_OF.has(type)) edges.push({ dependency: from, dependent: to, dev: DEVELOPMENT_ONLY.has(type) });
  });

  const packages = optionalArray(document, 'packages', '');
  if (packages.length > MAX_SBOM_COMPONENTS + described.size) throw tooLarge();
  let subject: { entry: Json; path: string } | null = null;
  const components: SbomComponent[] = [];
  packages.forEach((entry, index) => {
    const path = `packages[${index}]`;
    if (!isObject(entry)) throw malformed(path, 'expected an object');
    const ref = optionalString(entry, 'SPDXID', path) ?? path;
    if (described.has(ref)) {
      subject ??= { entry, path };
      return;
    }
    if (components.length >= MAX_SBOM_COMPONENTS) throw tooLarge();
    components.push({
      ref,
      name: optionalString(entry, 'name', path),
      version: optionalString(entry, 'versionInfo', path),
      purl: spdxPurl(entry, path),
      direct: null,
      dev: null,
    });
  });
  if (edges.length > 0) {
    for (const component of components) {
      const own = edges.filter((e) => e.dependency === component.ref);
      component.direct = own.some((e) => described.has(e.dependent));
      // Development-only when every edge the document gives it says so.
      component.dev = own.length === 0 ? null : own.every((e) => e.dev);
    }
  }
  const theSubject = subject as { entry: Json; path: string } | null;
  return {
    info: {
      spec: 'spdx',
      spec_version: version.slice('SPDX-'.length),
      name: theSubject !== null ? optionalString(theSubject.entry, 'name', theSubject.path) : optionalString(document, 'name', ''),
      version: theSubject !== null ? optionalString(theSubject.entry, 'versionInfo', theSubject.path) : null,
      serial_number: optionalString(document, 'documentNamespace', ''),
    },
    components,
  };
}

/** The package's purl: its first external reference of type `purl` (SPDX 2.3, Annex F). */
function spdxPurl(entry: Json, path: string): string | null {
  for (const [index, reference] of optionalArray(entry, 'externalRefs', path).entries()) {
    const at = `${path}.externalRefs[${index}]`;
    if (!isObject(reference)) throw malformed(at, 'expected an object');
    if (reference.referenceType !== 'purl') continue;
    const locator = optionalString(reference, 'referenceLocator', at);
    if (locator === null) throw malformed(`${at}.referenceLocator`, 'expected a string');
    return locator;
  }
  return null;
}
