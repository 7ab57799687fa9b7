module.exports = { locales: ['en', 'de', 'fr'] };
