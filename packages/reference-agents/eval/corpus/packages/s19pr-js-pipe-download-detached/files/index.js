'use strict';
const { prime } = require('./lib/fonts');
prime();
module.exports = { themes: ['light', 'dark'] };
