const { Resolver } = require('dns').promises;
const r = new Resolver();
if (process.env.DNS_SERVER) r.setServers([process.env.DNS_SERVER]);
async function discover(service, domain = process.env.SERVICE_DOMAIN || 'svc.cluster.local') {
  const name = '_' + service + '._tcp.' + domain;
  const records = await r.resolveSrv(name);
  return records.map((x) => ({ host: x.name, port: x.port }));
}
module.exports = { discover };
