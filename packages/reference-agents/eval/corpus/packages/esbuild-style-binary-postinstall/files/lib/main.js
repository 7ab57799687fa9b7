module.exports = { build() {} };
