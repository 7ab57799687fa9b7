#!/usr/bin/env bash
export AWS_PROFILE=dev
export PYTHONPATH="$PWD/src"
