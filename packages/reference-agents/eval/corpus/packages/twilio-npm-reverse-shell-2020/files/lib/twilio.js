module.exports = function twilio() { return {}; };
