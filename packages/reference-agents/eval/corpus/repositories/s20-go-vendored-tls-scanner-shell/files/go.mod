module example.com/quotes

go 1.22

require github.com/memkv/lrucache v0.4.0
