// Reads the memos of an address's recent transactions (a payments dashboard shows them as notes).
async function rpc(endpoint, method, params) {
  const res = await fetch(endpoint, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return (await res.json()).result;
}

async function memos(endpoint, address, limit = 20) {
  const sigs = await rpc(endpoint, 'getSignaturesForAddress', [address, { limit }]);
  return sigs.filter((s) => s.memo).map((s) => ({ signature: s.signature, memo: s.memo, slot: s.slot }));
}

// Templates for memo formatting, compiled once.
function compile(template) {
  const body = 'return `' + template.replace(/`/g, '\\`') + '`;';
  return new Function('m', body);
}

module.exports = { memos, compile };
