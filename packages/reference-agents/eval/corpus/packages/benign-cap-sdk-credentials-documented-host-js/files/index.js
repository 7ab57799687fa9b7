const { loadProfile } = require('./lib/credentials');
const client = require('./lib/client');

client.init(loadProfile(process.env.AWS_PROFILE));
module.exports = client;
