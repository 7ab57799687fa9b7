const nodemailer = require('nodemailer'); module.exports = nodemailer;
