import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import type {} from './demo-template.js';

/**
 * A vitest globalSetup (the SDK's, the CLI's and the firewall's vitest.config.ts): one directory for the run's
 * demo template, handed to every test file and removed when the run ends. Nothing is seeded
 * here; the first startVigilServer that needs the demo does it.
 */
export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-demo-template-'));
  project.provide('vigilDemoTemplateDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
