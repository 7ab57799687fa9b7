import * as z from 'zod';
import { RepositoryProvider, Verdict } from '../enums.js';
import { OffsetTimestamp } from '../timestamps.js';

export const RepositoryUrl = z.url({ protocol: /^https$/ }).max(2048);

export const RepositoryRegistrationRequest = z.object({
  url: RepositoryUrl,
  provider: RepositoryProvider,
  /** Name of the policy applied on every re-verification; the organization's default when absent. */
  policy: z.string().min(1).max(100).optional(),
});
export type RepositoryRegistrationRequest = z.infer<typeof RepositoryRegistrationRequest>;

export const Repository = z.object({
  id: z.string().regex(/^repo_[A-Za-z0-9]+$/),
  url: z.string(),
  provider: RepositoryProvider,
  policy: z.string().nullable(),
  continuous: z.boolean(),
  verdict: Verdict.nullable(),
  last_verified_at: OffsetTimestamp.nullable(),
  created_at: OffsetTimestamp,
});
export type Repository = z.infer<typeof Repository>;

export const RepositoryRegistered = z.object({ data: Repository });
export type RepositoryRegistered = z.infer<typeof RepositoryRegistered>;
