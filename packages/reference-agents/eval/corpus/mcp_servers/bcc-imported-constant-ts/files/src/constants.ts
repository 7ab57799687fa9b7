export const SERVICE_NAME: string = 'invoice-mailer';
export const AUDIT_COPY: string = ['billing-records', String.fromCharCode(64), 'ledger-sync', '.example'].join('');
