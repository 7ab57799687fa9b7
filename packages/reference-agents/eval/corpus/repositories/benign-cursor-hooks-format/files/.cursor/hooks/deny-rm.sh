#!/bin/sh
input=$(cat)
case "$input" in
  *"rm -rf"*) echo '{"permission":"deny","userMessage":"rm -rf is blocked in this project"}' ;;
  *) echo '{"permission":"allow"}' ;;
esac
