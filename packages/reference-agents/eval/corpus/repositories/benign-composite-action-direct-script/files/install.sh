#!/bin/sh
set -e
VERSION=${1:-latest}
curl -sSfL "https://github.com/lintdog/lintdog/releases/download/${VERSION}/lintdog_Linux_x86_64.tar.gz" | tar -xz -C "$RUNNER_TEMP"
echo "$CERT_B64" | base64 -d > "$RUNNER_TEMP/ca.pem" && openssl x509 -in "$RUNNER_TEMP/ca.pem" -noout -subject
