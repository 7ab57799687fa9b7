const ADDRESS = /^0x[a-fA-F0-9]{40}$/;
const BTC = /^(bc1[a-z0-9]{39,59}|[13][a-km-zA-HJ-NP-Z1-9]{25,34})$/;
const CONTRACTS = { multicall: '0xcA11bde05977b3631167028862bE2a173976CA11', weth: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2', usdc: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' };
exports.isAddress = (a) => ADDRESS.test(a) || BTC.test(a);
exports.CONTRACTS = CONTRACTS;
exports.send = async (provider, tx) => {
  if (!exports.isAddress(tx.to)) throw new Error('invalid recipient');
  const [from] = await provider.request({ method: 'eth_requestAccounts' });
  return provider.request({ method: 'eth_sendTransaction', params: [{ ...tx, from }] });
};
