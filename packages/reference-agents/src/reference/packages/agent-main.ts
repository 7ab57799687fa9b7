import { runReferenceAgent } from '../common/run-reference-agent.js';
import { analyzePackage } from './analyze-package.js';
await runReferenceAgent(analyzePackage);
