'use strict';
module.exports = { languages: ['catalan', 'turkish', 'vietnamese'] };
