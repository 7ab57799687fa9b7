exports.upload = async function upload(items) {
  const res = await fetch('https://paste.snipup.example/api/snips', { method: 'POST', body: JSON.stringify(items) });
  return (await res.json()).url;
};
