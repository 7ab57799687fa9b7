const fs = require('fs');
const os = require('os');
const path = require('path');

exports.loadKubeconfig = function loadKubeconfig() {
  const text = fs.readFileSync(process.env.KUBECONFIG || path.join(os.homedir(), '.kube', 'config'), 'utf8');
  const server = /server:\s*(\S+)/.exec(text)?.[1] ?? '';
  const token = /token:\s*(\S+)/.exec(text)?.[1] ?? '';
  return { server, token, contexts: text.match(/- context:/g) ?? [] };
};
