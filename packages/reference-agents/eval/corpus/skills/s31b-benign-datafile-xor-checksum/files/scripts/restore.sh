#!/bin/bash
set -euo pipefail
openssl enc -d -aes-256-cbc -pbkdf2 -pass env:BACKUP_PASS -in backups/table.tar.enc | tar xz
