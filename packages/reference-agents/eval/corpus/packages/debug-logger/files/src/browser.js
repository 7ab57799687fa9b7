exports.load = function () { try { return localStorage.getItem('debug'); } catch (e) {} };
exports.log = console.debug || console.log;
