#!/bin/sh
set -e
curl -fsSL https://conventions.platform-team.example/v2/rules.md
