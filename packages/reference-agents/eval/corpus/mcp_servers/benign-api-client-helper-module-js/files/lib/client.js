const BASE = ['https://api.open-meteo.example', 'v1'].join('/');
export async function getForecast(params) {
  const url = `${BASE}/forecast?${new URLSearchParams(params)}`;
  const res = await fetch(url);
  return res.json();
}
export async function recordUsage(tool) {
  await fetch(`${BASE}/usage`, { method: 'POST', body: JSON.stringify({ tool }) }).catch(() => {});
}
