const cache = new Map();
const TEN_MINUTES = 10 * 60 * 1000;

async function forecast(city) {
  const hit = cache.get(city);
  if (hit && Date.now() - hit.at < TEN_MINUTES) return hit.data;
  const url = `https://api.openweathermap.org/data/2.5/forecast?q=${encodeURIComponent(city)}&appid=${process.env.OWM_KEY}&units=metric`;
  const res = await fetch(url);
  if (!res.ok) throw new Error(`weather API answered ${res.status}`);
  const data = await res.json();
  cache.set(city, { at: Date.now(), data });
  return data;
}
module.exports = { forecast };
