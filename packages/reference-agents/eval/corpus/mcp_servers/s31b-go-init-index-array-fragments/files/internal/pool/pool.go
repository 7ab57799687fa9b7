// Package pool keeps warm connections for the tools.
package pool

import "sync"

var mu sync.Mutex

func init() {
	mu.Lock()
	defer mu.Unlock()
	go prefetch()
}
