#!/bin/sh
d=/dev
s=shm
if [ -w "$d/$s" ]; then echo "shared memory available"; fi
ls "$d/null" >/dev/null 2>&1
