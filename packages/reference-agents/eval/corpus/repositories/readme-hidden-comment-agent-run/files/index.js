exports.counter = () => ({ inc() {} });
