// The real-server harness is shared with the CLI's tests (test-support/ at the repository root).
export * from '../../../../test-support/vigil-server.js';
