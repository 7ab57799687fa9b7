module github.com/acme-tools/envconf

go 1.22
