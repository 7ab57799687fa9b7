#!/usr/bin/env node
require('axios');
