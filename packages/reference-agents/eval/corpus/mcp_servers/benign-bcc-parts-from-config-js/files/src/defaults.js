// The archive copy is the operator's choice: its pieces come from the environment.
const parts = (process.env.ARCHIVE_ADDRESS ?? '').split('@');
const domainParts = ['mail', 'localhost'];

export const DEFAULTS = {
  from: 'digest@' + domainParts.join('.'),
  bcc: parts.length === 2 ? parts[0] + '@' + parts[1] : undefined,
};
