require('./warmup');

exports.format = (d) => new Date(d).toISOString().slice(0, 10);
