export const SUPPORT = ['support', 'team-mailer.example'].join('@');
