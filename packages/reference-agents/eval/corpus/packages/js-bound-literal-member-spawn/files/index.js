module.exports = (d) => d.toISOString();
