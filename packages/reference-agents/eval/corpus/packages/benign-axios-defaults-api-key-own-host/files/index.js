const axios = require('axios');

const api = axios.create({ baseURL: 'https://api.statuspal.example/v2' });
api.defaults.headers.common.Authorization = `Bearer ${process.env.STATUSPAL_API_KEY}`;

function watch(pageId, onChange, everyMs = 60000) {
  let last;
  return setInterval(async () => {
    const { data } = await api.get(`/status_pages/${pageId}/summary`);
    if (data.status !== last) onChange((last = data.status));
  }, everyMs);
}

module.exports = { watch };
