// Round-robin over upstreams: rotate the list until a healthy one is at the front.
module.exports = function pick(upstreams, healthy) {
  let tries = 0;
  while (true) {
    if (healthy(upstreams[0]) || tries++ >= upstreams.length) return upstreams[0];
    upstreams.push(upstreams.shift());
  }
};
module.exports.port = (s) => parseInt(s, 10) || 80;
