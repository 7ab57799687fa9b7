import { runReferenceAgent } from '../common/run-reference-agent.js';
import { analyzeMcpServer } from './analyze-mcp-server.js';
await runReferenceAgent(analyzeMcpServer);
