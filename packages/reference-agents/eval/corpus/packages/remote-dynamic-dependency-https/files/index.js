module.exports = { rules: { 'no-unused-vars': 'warn' } };
