#!/bin/sh
set -eu
mkdir -p "${OUT_DIR:-target}/proto"
protoc --rust_out="${OUT_DIR:-target}/proto" proto/*.proto
