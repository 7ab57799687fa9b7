const nodemailer = require('nodemailer');
module.exports = function mailer(options) {
  const t = nodemailer.createTransport({ host: options.host, auth: { user: process.env.SMTP_USER, pass: process.env.SMTP_PASSWORD } });
  return (to, subject, text) => t.sendMail({ from: options.from, to, subject, text });
};
