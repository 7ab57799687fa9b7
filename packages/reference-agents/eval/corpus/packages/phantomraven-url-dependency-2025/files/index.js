module.exports = { rules: {} };
