export { VigilClient } from './client.js';
export type { VigilClientOptions, RequestOptions } from './client.js';
export { VigilApiError, VigilResponseError } from './errors.js';
