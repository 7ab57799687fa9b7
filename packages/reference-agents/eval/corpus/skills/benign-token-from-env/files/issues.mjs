const token = process.env.GITHUB_TOKEN;
const res = await fetch(`https://api.github.com/repos/${process.argv[2]}/issues`, { headers: { authorization: `Bearer ${token}` } });
console.log(await res.json());
