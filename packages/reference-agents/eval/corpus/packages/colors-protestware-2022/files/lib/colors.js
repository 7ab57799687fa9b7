var colors = {}; colors.enabled = true; module.exports = colors;
