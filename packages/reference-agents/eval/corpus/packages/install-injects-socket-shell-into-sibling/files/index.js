module.exports = { theme: () => 'dark' };
