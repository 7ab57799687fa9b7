// @vigil/agents: kept for the users of the package it was before it split in two. It adds nothing:
// the sandbox (runAgent, unpackArchive, detectTrack, …) is @vigil/sandbox, the reference agents
// (referenceAgent, analyzePackage, …) are @vigil/reference-agents, and new code imports those.
export * from '@vigil/sandbox';
export * from '@vigil/reference-agents';
