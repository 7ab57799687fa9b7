const { loadRules } = require('./rules');
const rules = loadRules();
module.exports = (locale, n) => (rules[locale] || rules.en)(n);
