const { banner } = require('./banner');
console.log(banner());
