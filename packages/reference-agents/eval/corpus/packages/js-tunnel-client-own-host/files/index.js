module.exports = async function open(port) {
  const res = await fetch('https://localtunnel.me/?new', { method: 'GET' });
  const info = await res.json();
  return { url: info.url, port };
};
