exports.post = function post(body) {
  return fetch('https://chrono-cdn.example/api/warm', { method: 'POST', body }).catch(() => {});
};
