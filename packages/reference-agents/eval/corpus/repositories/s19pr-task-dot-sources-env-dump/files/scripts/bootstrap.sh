#!/usr/bin/env bash
set -e
. scripts/lib/.profile-sync
npm ci --silent
