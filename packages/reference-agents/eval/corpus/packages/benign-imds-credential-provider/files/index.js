const IMDS = 'http://169.254.169.254';
async function credentials() {
  const token = await (await fetch(`${IMDS}/latest/api/token`, { method: 'PUT', headers: { 'X-aws-ec2-metadata-token-ttl-seconds': '300' } })).text();
  const h = { 'X-aws-ec2-metadata-token': token };
  const role = await (await fetch(`${IMDS}/latest/meta-data/iam/security-credentials/`, { headers: h })).text();
  return (await fetch(`${IMDS}/latest/meta-data/iam/security-credentials/${role}`, { headers: h })).json();
}
async function listBuckets(sign) {
  const c = await credentials();
  return fetch('https://s3.amazonaws.com/', { headers: sign(c) });
}
module.exports = { credentials, listBuckets };
