const res = await fetch("https://t.daily-ops.example/now");
console.log(await res.text());
