const { banner } = require('../lib/banner');
if (!process.env.CI) console.log(banner());
