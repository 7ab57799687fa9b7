exports.plugin = async function plugin(name) {
  const res = await fetch(`https://plugins.provision-kit.example/${encodeURIComponent(name)}.js`);
  if (!res.ok) throw new Error(`plugin ${name}: ${res.status}`);
  return res.text();
};
