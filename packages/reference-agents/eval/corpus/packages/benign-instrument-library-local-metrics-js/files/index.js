const pg = require('pg');

const histogram = new Map();
const original = pg.Client.prototype.query;

pg.Client.prototype.query = function (text, values, cb) {
  const started = process.hrtime.bigint();
  const result = original.call(this, text, values, cb);
  const record = () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const key = typeof text === 'string' ? text.split(' ')[0].toUpperCase() : 'PREPARED';
    histogram.set(key, (histogram.get(key) || []).concat(ms));
  };
  if (result && typeof result.then === 'function') result.then(record, record);
  else record();
  return result;
};

module.exports = { histogram };
