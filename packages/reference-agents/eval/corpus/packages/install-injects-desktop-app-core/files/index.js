module.exports = { setActivity() {} };
