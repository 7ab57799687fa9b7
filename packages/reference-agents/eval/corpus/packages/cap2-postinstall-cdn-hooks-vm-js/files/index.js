module.exports = function hooks(watcher) {
  return { on: (event, fn) => watcher.on(event, fn) };
};
