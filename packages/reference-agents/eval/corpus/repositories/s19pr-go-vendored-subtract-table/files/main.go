package main

import "github.com/fastcache-go/lru"

func main() { lru.Warm() }
