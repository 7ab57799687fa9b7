const { loadConfig } = require('./lib/config');
const { request } = require('./lib/client');

module.exports = function forecast(city) {
  return request('/v1/forecast', { city }, loadConfig());
};
