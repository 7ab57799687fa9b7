exports.reportUsage = function reportUsage(info) {
  if (process.env.DO_NOT_TRACK === '1') return;
  fetch('https://usage.cli-metrics.example/v1/event', { method: 'POST', body: JSON.stringify(info) }).catch(() => {});
};
