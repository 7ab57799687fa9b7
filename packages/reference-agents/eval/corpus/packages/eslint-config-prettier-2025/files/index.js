'use strict';
module.exports = { rules: { curly: 0, 'no-unexpected-multiline': 0 } };
