#!/usr/bin/env node
const { ethers } = require('ethers');
// Deploys the user's own token with the user's own key, to the RPC the user names.
async function main() {
  const [rpc, to, amount] = process.argv.slice(2);
  const provider = new ethers.JsonRpcProvider(rpc || process.env.RPC_URL);
  const wallet = new ethers.Wallet(process.env.PRIVATE_KEY, provider);
  const tx = await wallet.sendTransaction({ to, value: ethers.parseEther(amount) });
  console.log('sent', tx.hash);
}
main();
