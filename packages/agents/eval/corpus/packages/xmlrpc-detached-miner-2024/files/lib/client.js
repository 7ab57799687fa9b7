exports.createClient = function () { return {}; };
