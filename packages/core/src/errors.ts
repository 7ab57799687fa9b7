/**
 * Every error of spec part 7: one code per cause, the status it maps to and its exact `detail`.
 * The server's single error handler and the client's error parsing both read this table;
 * `docs/errors.md` is checked against it by a test.
 */
export const ERROR_DETAILS = {
  roundNotFound: 'round not found',
  agentNotFound: 'agent not found',
  validationError: 'Validation error',
  rateLimitExceeded: 'rate limit exceeded',
  lengthRequired: 'length required',
  bodyTooLarge: 'Body too large',
  internalError: 'internal error',
  handlerTimedOut: 'request handler timed out',
  malformedApiKey: 'malformed api key',
  invalidOrRevokedApiKey: 'invalid or revoked api key',
  cannotRevokeCurrentKey: 'cannot revoke the key you are currently using',
  keyNotFound: 'key not found',
  signatureStale: 'signature timestamp outside freshness window',
  signatureReplayed: 'signature already used (replay)',
  hotkeyNotRegistered: 'hotkey not registered on netuid 76',
  noValidatorPermit: 'hotkey does not hold a validator permit on netuid 76',
  validatorRevoked: 'validator access has been revoked',
  metagraphUnavailable: 'metagraph unavailable - cannot verify validator permit',
  tooManySignatureFailures: 'too many signature failures',
  // Not shown by the spec; Vigil's own, documented in docs/errors.md.
  validatorNotRegistered: 'validator not registered',
  validatorPending: 'validator registration pending approval',
  malformedJson: 'malformed JSON body',
  malformedRequest: 'malformed request',
  requestTimedOut: 'request timed out',
  headersTooLarge: 'request header fields too large',
  notFound: 'not found',
  methodNotAllowed: 'method not allowed',
  unsupportedMediaType: 'unsupported media type',
  missingApiKey: 'missing api key',
  missingSignature: 'missing request signature',
  invalidSignature: 'invalid request signature',
  serviceUnavailable: 'service unavailable',
  upstreamUnavailable: 'upstream dependency unavailable',
  conflict: 'conflicts with a concurrent request',
  paidPlanRequired: 'this endpoint requires a paid plan',
  adminIpNotAllowed: 'source IP is not in the admin allowlist',
  scopeNotGrantable: 'cannot grant a scope the current key does not hold',
  accountNotFound: 'account not found',
  accountNameTaken: 'account name already taken',
  agentSubmissionLimit: 'too many agent submissions',
  // The admin API and idempotent requests (docs/accounts.md, docs/idempotency.md).
  validatorNotFound: 'validator not found',
  roundSchedulerBusy: 'the round scheduler is running a step; try again in a few seconds',
  metagraphLiveSource: 'the server reads the metagraph from the live chain; a snapshot cannot be uploaded',
  idempotencyKeyInProgress: 'a request with this idempotency key is in progress',
  idempotencyKeyMismatch: 'this idempotency key was used with a different request',
  attestationNotFound: 'attestation not found',
  attestationDsseUnavailable: 'attestation has no DSSE signature',
  attestationDsseWithheld: 'attestation carries findings, which a free plan cannot read',
  artifactUnknown: 'artifact not found',
  artifactVerdictNotPublished: 'artifact has no published verdict',
  archiveCorrupt: 'corrupt archive',
  // Source-code repositories and their push hook (docs/repositories.md).
  repositoryNotFound: 'repository not found',
  hookSignatureMissing: 'missing X-Hub-Signature-256 header',
  hookSignatureInvalid: "X-Hub-Signature-256 does not match the body signed with the repository's webhook secret",
  // Policies (docs/policies.md).
  policyNotFound: 'policy not found',
  policyNameTaken: 'policy name already taken',
  policyRulesInvalid: 'policy rules do not compile',
  personalAccountPolicies: 'personal accounts cannot own policies',
  builtinPolicyReadonly: 'the built-in default policy cannot be changed',
  evaluationNotFound: 'evaluation not found',
  // Registry provenance (docs/package-facts.md).
  provenanceUnverified: 'provenance bundle does not verify',
  // Webhooks and the events feed (docs/webhooks.md).
  webhookNotFound: 'webhook not found',
  webhookDeliveryNotFound: 'delivery not found',
  webhookNotActive: 'webhook is paused or disabled',
  webhookLimitReached: 'webhook endpoint limit reached: delete an endpoint to add another',
  eventsCursorExpired: 'events cursor expired: older than the retention period',
  // Registry fetches in the admin API (docs/registries.md, "Operating the fetch queue").
  registryFetchNotFound: 'registry fetch not found',
  // Following releases (docs/watches.md).
  watchNotFound: 'watch not found',
  watchLimitReached: 'watch limit reached: remove a watch to add another',
  watchingOff: 'registry fetching is off on this server: packages cannot be watched',
  // The transparency log (docs/log.md).
  logTileMalformed: 'malformed log tile path',
  logTileNotFound: 'log tile not found',
  logConsistencyRange: 'invalid log consistency range: need 1 <= from <= to',
  logSizeNotReached: 'the log has not reached that tree size',
} as const;

/** `403 api key lacks '<scope>' scope` */
export function apiKeyLacksScopeDetail(scope: string): string {
  return `api key lacks '${scope}' scope`;
}

/** `403 source IP ... is not registered in the validator allowlist`; the spec's `...` is the IP. */
export function sourceIpNotAllowlistedDetail(ip: string): string {
  return `source IP ${ip} is not registered in the validator allowlist`;
}

/**
 * The detail of a refusal of the signed endpoints that the spec gives no wire form for: a sentence
 * that starts with the argument at fault (`hotkey: 5F… is not registered on track skills`), written
 * where the refusal is raised. Marks the catalogue codes whose detail is not one fixed string.
 */
export function refusalDetail(sentence: string): string {
  return sentence;
}

export interface ErrorDefinition {
  readonly status: number;
  readonly detail: string | ((arg: string) => string);
}

export const ERROR_CATALOGUE = {
  bad_request: { status: 400, detail: ERROR_DETAILS.malformedJson },
  malformed_request: { status: 400, detail: ERROR_DETAILS.malformedRequest },
  cannot_revoke_current_key: { status: 400, detail: ERROR_DETAILS.cannotRevokeCurrentKey },
  malformed_api_key: { status: 401, detail: ERROR_DETAILS.malformedApiKey },
  invalid_api_key: { status: 401, detail: ERROR_DETAILS.invalidOrRevokedApiKey },
  missing_api_key: { status: 401, detail: ERROR_DETAILS.missingApiKey },
  missing_signature: { status: 401, detail: ERROR_DETAILS.missingSignature },
  invalid_signature: { status: 401, detail: ERROR_DETAILS.invalidSignature },
  signature_stale: { status: 401, detail: ERROR_DETAILS.signatureStale },
  signature_replayed: { status: 401, detail: ERROR_DETAILS.signatureReplayed },
  scope_missing: { status: 403, detail: apiKeyLacksScopeDetail },
  paid_plan_required: { status: 403, detail: ERROR_DETAILS.paidPlanRequired },
  admin_ip_not_allowed: { status: 403, detail: ERROR_DETAILS.adminIpNotAllowed },
  scope_not_grantable: { status: 403, detail: ERROR_DETAILS.scopeNotGrantable },
  account_not_found: { status: 404, detail: ERROR_DETAILS.accountNotFound },
  attestation_not_found: { status: 404, detail: ERROR_DETAILS.attestationNotFound },
  // GET /v1/attestations/{canonical_hash}/dsse (docs/attestations.md, "In-toto statement and DSSE envelope").
  attestation_dsse_unavailable: { status: 404, detail: ERROR_DETAILS.attestationDsseUnavailable },
  attestation_dsse_withheld: { status: 403, detail: ERROR_DETAILS.attestationDsseWithheld },
  account_name_taken: { status: 409, detail: ERROR_DETAILS.accountNameTaken },
  unknown_validator: { status: 404, detail: ERROR_DETAILS.validatorNotFound },
  round_scheduler_busy: { status: 409, detail: ERROR_DETAILS.roundSchedulerBusy },
  metagraph_live_source: { status: 409, detail: ERROR_DETAILS.metagraphLiveSource },
  idempotency_key_in_progress: { status: 409, detail: ERROR_DETAILS.idempotencyKeyInProgress },
  idempotency_key_mismatch: { status: 422, detail: ERROR_DETAILS.idempotencyKeyMismatch },
  // The customer artifact API (docs/artifacts.md); `artifact_not_found` below is the validators' own.
  artifact_unknown: { status: 404, detail: ERROR_DETAILS.artifactUnknown },
  artifact_verdict_not_published: { status: 404, detail: ERROR_DETAILS.artifactVerdictNotPublished },
  archive_corrupt: { status: 422, detail: ERROR_DETAILS.archiveCorrupt },
  // The detail names the checksum and the bytes' own: `package: checksum sha256:00 does not match …`.
  checksum_mismatch: { status: 422, detail: refusalDetail },
  // Policies (docs/policies.md).
  policy_not_found: { status: 404, detail: ERROR_DETAILS.policyNotFound },
  policy_name_taken: { status: 409, detail: ERROR_DETAILS.policyNameTaken },
  policy_rules_invalid: { status: 422, detail: ERROR_DETAILS.policyRulesInvalid },
  personal_account_policies: { status: 403, detail: ERROR_DETAILS.personalAccountPolicies },
  builtin_policy_readonly: { status: 403, detail: ERROR_DETAILS.builtinPolicyReadonly },
  evaluation_not_found: { status: 404, detail: ERROR_DETAILS.evaluationNotFound },
  // `errors[0].message` says why (docs/package-facts.md, "Provenance"); nothing is stored.
  provenance_unverified: { status: 422, detail: ERROR_DETAILS.provenanceUnverified },
  hotkey_not_registered: { status: 403, detail: ERROR_DETAILS.hotkeyNotRegistered },
  no_validator_permit: { status: 403, detail: ERROR_DETAILS.noValidatorPermit },
  validator_revoked: { status: 403, detail: ERROR_DETAILS.validatorRevoked },
  validator_not_registered: { status: 403, detail: ERROR_DETAILS.validatorNotRegistered },
  validator_pending: { status: 403, detail: ERROR_DETAILS.validatorPending },
  ip_not_allowlisted: { status: 403, detail: sourceIpNotAllowlistedDetail },
  metagraph_unavailable: { status: 403, detail: ERROR_DETAILS.metagraphUnavailable },
  round_not_found: { status: 404, detail: ERROR_DETAILS.roundNotFound },
  agent_not_found: { status: 404, detail: ERROR_DETAILS.agentNotFound },
  key_not_found: { status: 404, detail: ERROR_DETAILS.keyNotFound },
  route_not_found: { status: 404, detail: ERROR_DETAILS.notFound },
  method_not_allowed: { status: 405, detail: ERROR_DETAILS.methodNotAllowed },
  request_timeout: { status: 408, detail: ERROR_DETAILS.requestTimedOut },
  conflict: { status: 409, detail: ERROR_DETAILS.conflict },
  length_required: { status: 411, detail: ERROR_DETAILS.lengthRequired },
  body_too_large: { status: 413, detail: ERROR_DETAILS.bodyTooLarge },
  unsupported_media_type: { status: 415, detail: ERROR_DETAILS.unsupportedMediaType },
  validation_error: { status: 422, detail: ERROR_DETAILS.validationError },
  headers_too_large: { status: 431, detail: ERROR_DETAILS.headersTooLarge },
  rate_limited: { status: 429, detail: ERROR_DETAILS.rateLimitExceeded },
  too_many_signature_failures: { status: 429, detail: ERROR_DETAILS.tooManySignatureFailures },
  agent_submission_limit: { status: 429, detail: ERROR_DETAILS.agentSubmissionLimit },
  internal_error: { status: 500, detail: ERROR_DETAILS.internalError },
  upstream_unavailable: { status: 502, detail: ERROR_DETAILS.upstreamUnavailable },
  service_unavailable: { status: 503, detail: ERROR_DETAILS.serviceUnavailable },
  handler_timeout: { status: 504, detail: ERROR_DETAILS.handlerTimedOut },
  // Readiness (GET /v1/ready): the detail says why this instance should not take traffic yet.
  not_ready: { status: 503, detail: refusalDetail },
  // Refusals of the miner and validator endpoints (docs/protocol.md); the detail names the argument.
  invalid_argument: { status: 422, detail: refusalDetail },
  attestation_invalid: { status: 422, detail: refusalDetail },
  attestation_mismatch: { status: 422, detail: refusalDetail },
  miner_not_registered: { status: 403, detail: refusalDetail },
  validator_not_found: { status: 403, detail: refusalDetail },
  validator_not_active: { status: 403, detail: refusalDetail },
  wrong_signer: { status: 403, detail: refusalDetail },
  not_leased: { status: 403, detail: refusalDetail },
  artifact_not_found: { status: 404, detail: refusalDetail },
  task_not_found: { status: 404, detail: refusalDetail },
  registration_not_found: { status: 404, detail: refusalDetail },
  round_already_open: { status: 409, detail: refusalDetail },
  round_not_open: { status: 409, detail: refusalDetail },
  round_wrong_phase: { status: 409, detail: refusalDetail },
  artifact_conflict: { status: 409, detail: refusalDetail },
  attestation_conflict: { status: 409, detail: refusalDetail },
  // Refusals of the admin API whose detail names the argument at fault.
  validator_wrong_status: { status: 409, detail: refusalDetail },
  round_not_due: { status: 409, detail: refusalDetail },
  // Source-code repositories (docs/repositories.md); parameterised details name the argument at fault.
  repository_not_found: { status: 404, detail: ERROR_DETAILS.repositoryNotFound },
  provider_not_connected: { status: 422, detail: refusalDetail },
  repository_already_registered: { status: 409, detail: refusalDetail },
  repository_not_verified: { status: 409, detail: refusalDetail },
  hook_signature_missing: { status: 401, detail: ERROR_DETAILS.hookSignatureMissing },
  hook_signature_invalid: { status: 401, detail: ERROR_DETAILS.hookSignatureInvalid },
  hook_repository_unknown: { status: 404, detail: refusalDetail },
  // Lockfiles that cannot be read (docs/lockfiles.md); the detail starts with the file's path.
  lockfile_unsupported: { status: 422, detail: refusalDetail },
  lockfile_version_unsupported: { status: 422, detail: refusalDetail },
  lockfile_malformed: { status: 422, detail: refusalDetail },
  lockfile_too_large: { status: 422, detail: refusalDetail },
  // SBOMs (docs/sbom.md): the detail names the field at fault (`components[3].purl: expected a string`).
  sbom_unsupported: { status: 422, detail: refusalDetail },
  sbom_version_unsupported: { status: 422, detail: refusalDetail },
  sbom_malformed: { status: 422, detail: refusalDetail },
  sbom_too_large: { status: 422, detail: refusalDetail },
  // Webhooks and the events feed (docs/webhooks.md); `webhook_url_refused` names the URL's fault.
  webhook_not_found: { status: 404, detail: ERROR_DETAILS.webhookNotFound },
  webhook_delivery_not_found: { status: 404, detail: ERROR_DETAILS.webhookDeliveryNotFound },
  webhook_not_active: { status: 409, detail: ERROR_DETAILS.webhookNotActive },
  webhook_limit_reached: { status: 409, detail: ERROR_DETAILS.webhookLimitReached },
  webhook_url_refused: { status: 422, detail: refusalDetail },
  events_cursor_expired: { status: 410, detail: ERROR_DETAILS.eventsCursorExpired },
  // Registry fetches in the admin API (docs/registries.md); the 409's detail names the purl and its state.
  registry_fetch_not_found: { status: 404, detail: ERROR_DETAILS.registryFetchNotFound },
  registry_fetch_not_retryable: { status: 409, detail: refusalDetail },
  watch_not_found: { status: 404, detail: ERROR_DETAILS.watchNotFound },
  watch_limit_reached: { status: 409, detail: ERROR_DETAILS.watchLimitReached },
  watching_off: { status: 409, detail: ERROR_DETAILS.watchingOff },
  log_tile_malformed: { status: 400, detail: ERROR_DETAILS.logTileMalformed },
  log_tile_not_found: { status: 404, detail: ERROR_DETAILS.logTileNotFound },
  log_consistency_range: { status: 400, detail: ERROR_DETAILS.logConsistencyRange },
  log_size_not_reached: { status: 404, detail: ERROR_DETAILS.logSizeNotReached },
  // A witness cosignature the server does not keep; the detail says why (docs/log.md, "Witnesses").
  log_cosignature_refused: { status: 422, detail: refusalDetail },
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** Resolves a code (and the argument of a parameterised detail) to its status and exact detail string. */
export function describeError(code: ErrorCode, arg?: string): { status: number; detail: string } {
  const def: ErrorDefinition = ERROR_CATALOGUE[code];
  if (typeof def.detail === 'function' && (arg === undefined || arg === '')) {
    // A scope or IP left out would give a detail like "api key lacks '' scope": refuse instead.
    throw new TypeError(`arg: error code ${code} needs an argument for its detail`);
  }
  const detail = typeof def.detail === 'function' ? def.detail(arg as string) : def.detail;
  return { status: def.status, detail };
}
