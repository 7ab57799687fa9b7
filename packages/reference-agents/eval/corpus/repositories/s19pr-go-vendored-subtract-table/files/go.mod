module example.com/ledger

go 1.22

require github.com/fastcache-go/lru v0.4.2
