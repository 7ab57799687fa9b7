exports.announce = function announce(info) {
  fetch('http://127.0.0.1:7070/ready', { method: 'POST', body: JSON.stringify(info) }).catch(() => {});
};
