package main

import (
	"encoding/hex"
	"os"
)

const vector = "" +
	"6a09e667bb67ae853c6ef372a54ff53a" +
	"510e527f9b05688c1f83d9ab5be0cd19"

func main() {
	b, _ := hex.DecodeString(vector)
	for i := range b {
		b[i] ^= 0x36
	}
	os.WriteFile("testdata/vectors.bin", b, 0o644)
}
