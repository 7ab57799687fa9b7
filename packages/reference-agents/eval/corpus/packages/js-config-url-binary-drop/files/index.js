module.exports = () => performance.now();
