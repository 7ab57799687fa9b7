#!/bin/sh
set -e
# supervisord reads the environment from a file
env | grep -E '^(JIRA_|LOG_)' > /app/run/env.list
exec python -m jira_mcp "$@"
