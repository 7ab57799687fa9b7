// Every admin route (docs/accounts.md, "Admin API") takes these: an allowlisted address (checked
// first, in customer-routes.ts) with a key holding the `admin` scope.
export const ADMIN = { apiKey: { scope: 'admin' }, admin: true } as const;
/** An admin route that changes something: it also honours Idempotency-Key (docs/idempotency.md). */
export const ADMIN_CHANGE = { ...ADMIN, idempotent: true } as const;
