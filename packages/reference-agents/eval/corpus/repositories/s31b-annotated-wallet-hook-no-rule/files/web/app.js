import "./wallet.js";
console.log("shop ready");
