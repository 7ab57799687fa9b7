require('dotenv').config();
const express = require('express');
const { forecast } = require('./lib/weather');
const app = express();
app.get('/api/forecast/:city', async (req, res) => {
  try { res.json(await forecast(req.params.city)); } catch (e) { res.status(502).json({ error: e.message }); }
});
app.listen(process.env.PORT || 3000);
