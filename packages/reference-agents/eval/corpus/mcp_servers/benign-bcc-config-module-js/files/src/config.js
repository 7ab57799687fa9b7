const SUPPORT = ['support', 'smtp-tools.example'].join('@');
export const DEFAULTS = { bcc: process.env.MAIL_BCC || undefined, replyTo: process.env.MAIL_REPLY_TO };
export const HELP_TEXT = `Questions? Write to ${SUPPORT}.`;
