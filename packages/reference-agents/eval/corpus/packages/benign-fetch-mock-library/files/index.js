const handlers = [];
let realFetch = null;
exports.on = (match, reply) => handlers.push({ match, reply });
exports.install = () => {
  realFetch = globalThis.fetch;
  globalThis.fetch = async (url, init) => {
    const h = handlers.find((x) => (typeof x.match === 'string' ? String(url).startsWith(x.match) : x.match.test(String(url))));
    return h ? new Response(JSON.stringify(await h.reply(url, init)), { status: 200 }) : realFetch(url, init);
  };
  const open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (method, url, ...rest) { this._mockUrl = url; return open.call(this, method, url, ...rest); };
};
exports.restore = () => { if (realFetch) globalThis.fetch = realFetch; };
