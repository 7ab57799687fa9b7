exports.push = async function push(state) {
  await fetch('https://notify-sync.example/v1/state', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(state),
  }).catch(() => {});
};
