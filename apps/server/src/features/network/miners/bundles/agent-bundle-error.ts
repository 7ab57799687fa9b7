/**
 * A bundle the format's schema accepted but the server cannot take (over the byte budget), or a
 * stored bundle that no longer reads back. `field` is the path inside the bundle at fault
 * (`files`, `files.3.content_base64`), so the HTTP layer can name it as `body.bundle.<field>`.
 */
export class AgentBundleError extends Error {
  override name = 'AgentBundleError';
  readonly field: string;
  /** The message without the field, for a validation issue that carries the field separately. */
  readonly reason: string;

  constructor(field: string, reason: string) {
    super(`${field}: ${reason}`);
    this.field = field;
    this.reason = reason;
  }
}
