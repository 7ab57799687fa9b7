import { runReferenceAgent } from '../common/run-reference-agent.js';
import { analyzeRepository } from './analyze-repository.js';

await runReferenceAgent(analyzeRepository);
