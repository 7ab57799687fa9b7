const core = require('@actions/core');
core.setOutput('files', '');
