module.exports = () => {};
