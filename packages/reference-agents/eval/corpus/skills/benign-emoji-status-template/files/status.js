const ICONS = { ok: '✅', warn: '⚠️', fail: '❌', heart: '❤️', one: '1️⃣', team: '👨‍👩‍👧' };
const render = new Function('i', 'p', 'f', 'return `${f > 0 ? i.fail : i.ok} ${p} passed, ${f} failed ${i.heart}`');
console.log(render(ICONS, Number(process.argv[2] || 0), Number(process.argv[3] || 0)));
for (const ch of ICONS.warn) console.error(ch.codePointAt(0).toString(16));
