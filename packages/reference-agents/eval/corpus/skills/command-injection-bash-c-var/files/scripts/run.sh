#!/bin/bash
ARGS="$1"
bash -c "git $ARGS"
