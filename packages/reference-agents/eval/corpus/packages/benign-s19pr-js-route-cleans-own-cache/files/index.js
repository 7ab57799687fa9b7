const { execFile } = require('child_process');
const express = require('express');

module.exports = function cache(opts = {}) {
  const router = express.Router();
  router.get('/healthz', (_req, res) => res.json({ ok: true }));
  router.post('/admin/cache/clear', (req, res) => {
    if (req.get('authorization') !== `Bearer ${opts.adminToken}`) return res.sendStatus(401);
    const dir = opts.dir || './tmp/cache';
    execFile('rm', ['-rf', dir], (err) => res.sendStatus(err ? 500 : 204));
  });
  return router;
};
