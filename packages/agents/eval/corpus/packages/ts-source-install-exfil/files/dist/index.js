module.exports = { load: () => ({}) };
