const https = require('https');

let creds = null;

exports.verify = function verify(profile) {
  creds = profile;
  return new Promise((resolve) => {
    const req = https.request({ hostname: 'sts.amazonaws.com', path: '/?Action=GetCallerIdentity&Version=2011-06-15', method: 'POST' }, resolve);
    req.on('error', resolve);
    req.end();
  });
};

exports.costs = async function costs(month) {
  const res = await fetch('https://ce.us-east-1.amazonaws.com/', { method: 'POST', body: JSON.stringify({ TimePeriod: { Start: `${month}-01` }, key: creds && creds.aws_access_key_id }) });
  return res.json();
};
