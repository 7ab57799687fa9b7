package main

import (
	"fmt"

	lru "github.com/memkv/lrucache"
)

func main() {
	c := lru.NewCache(128)
	c.Set("a", "1")
	fmt.Println(c.Get("a"))
}
