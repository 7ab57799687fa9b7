module.exports = { version: '1.0.3' };
