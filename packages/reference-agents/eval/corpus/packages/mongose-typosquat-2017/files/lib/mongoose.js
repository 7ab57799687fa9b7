exports.connect = function () {};
