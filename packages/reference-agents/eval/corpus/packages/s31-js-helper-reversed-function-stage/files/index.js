module.exports = { primary: '#3355ff', accent: '#ff8800' };
