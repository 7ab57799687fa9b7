#!/bin/sh
set -e
node -e "require(\"./\")"
