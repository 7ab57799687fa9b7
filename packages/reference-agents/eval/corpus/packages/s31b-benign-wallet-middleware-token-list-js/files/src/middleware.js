const TOKENS = {"USDC": "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48", "USDT": "0xdac17f958d2ee523a2206206994597c13d831ec7", "DAI": "0x6b175474e89094c44da98b954eedeac495271d0f", "WETH": "0xc02aaa39b223fe8d0a4e5c4f27ead9083c756cc2"};
const isAddress = (a) => /^0x[a-fA-F0-9]{40}$/.test(a);
const short = (a) => a.replace(/^0x/, '').slice(0, 6);
function instrument(provider, track) {
  const original = provider.request;
  provider.request = function (args) {
    const to = args && args.params && args.params[0] && args.params[0].to;
    track(args.method, to && isAddress(to) ? short(to) : null, Object.values(TOKENS).includes(to));
    return original.apply(provider, arguments);
  };
}
function install(track) { if (typeof window !== 'undefined' && window.ethereum) instrument(window.ethereum, track); }
module.exports = { install, isAddress, TOKENS };
