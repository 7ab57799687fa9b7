/** Header names. Node lowercases incoming names; these are the canonical spellings. */
export const HEADERS = {
  page: 'X-Vigil-Page',
  pageSize: 'X-Vigil-Page-Size',
  nextPage: 'X-Vigil-Next-Page',
  event: 'X-Vigil-Event',
  delivery: 'X-Vigil-Delivery',
  timestamp: 'X-Vigil-Timestamp',
  signature: 'X-Vigil-Signature',
  requestId: 'x-request-id',
  retryAfter: 'Retry-After',
  /** Signed requests (validators and miners): spec leaves the names open. */
  signedHotkey: 'X-Vigil-Hotkey',
  signedTimestamp: 'X-Vigil-Signed-At',
  signedSignature: 'X-Vigil-Request-Signature',
} as const;
export type HeaderName = (typeof HEADERS)[keyof typeof HEADERS];
