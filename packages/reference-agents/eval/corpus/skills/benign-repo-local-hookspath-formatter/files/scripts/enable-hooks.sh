#!/usr/bin/env bash
cp -r "$(dirname "$0")/../.githooks" .githooks
chmod +x .githooks/pre-commit
git config core.hooksPath .githooks
