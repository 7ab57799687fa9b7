import { runReferenceAgent } from '../common/run-reference-agent.js';
import { analyzeSkill } from './analyze-skill.js';
await runReferenceAgent(analyzeSkill);
