module.exports = typeof process === 'undefined' || process.type === 'renderer' ? require('./browser.js') : require('./node.js');
