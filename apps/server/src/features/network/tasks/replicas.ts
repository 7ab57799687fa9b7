/** Independent executions wanted per task: that many validators lease (and attest) the same task. */
export const REPLICAS = 3;
