const express = require('express');
const logger = require('./lib/logger');
const app = express();
app.use(express.json());
app.get('/api/health', (req, res) => res.json({ ok: true }));
app.listen(process.env.PORT || 4000, () => logger.info('listening'));
