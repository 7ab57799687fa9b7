'use strict';
exports.analyze = function analyze(tree, options) { return { scopes: [], tree, options }; };
