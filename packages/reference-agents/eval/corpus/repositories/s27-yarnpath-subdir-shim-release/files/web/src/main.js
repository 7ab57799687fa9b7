document.querySelector("#app").textContent = "portal";
