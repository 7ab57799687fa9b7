module github.com/acme-tools/bolt-cache

go 1.22
