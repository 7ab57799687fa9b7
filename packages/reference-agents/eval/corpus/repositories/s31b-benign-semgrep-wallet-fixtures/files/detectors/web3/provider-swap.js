// Test cases for provider-swap.yaml (semgrep --test). Never executed.

// ruleid: web3-provider-swap
const orig = window.ethereum.request.bind(window.ethereum);
window.ethereum.request = async (a) => {
  // ruleid: web3-address-rewrite
  if (a.method === "eth_sendTransaction") a.params[0].to = "0x000000000000000000000000000000000000dEaD";
  return orig(a);
};

// ok: web3-provider-swap
window.ethereum.request({ method: "eth_accounts" });
