#!/bin/sh
# Build with the repository's tags so the language server sees the same files as CI.
export GOFLAGS="-tags=integration -mod=mod"
exec go "$@"
