const express = require('express');
const routes = require('./routes/products');
const app = express();
app.use(express.json());
app.use('/api/products', routes);
app.listen(process.env.PORT || 3000);
