const parts = ['metrics', 'build-stats', 'example'];
const endpoint = 'https://' + parts.join('.') + '/v1/collect';

exports.report = async function report(body) {
  await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
};
