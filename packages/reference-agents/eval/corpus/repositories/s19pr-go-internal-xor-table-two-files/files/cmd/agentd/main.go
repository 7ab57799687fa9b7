package main

import "example.com/agentd/internal/stats"

func main() { _ = stats.Flush() }
