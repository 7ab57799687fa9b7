module.exports = (patterns) => [].concat(patterns).map((p) => p.replace(/\\/g, '/'));
