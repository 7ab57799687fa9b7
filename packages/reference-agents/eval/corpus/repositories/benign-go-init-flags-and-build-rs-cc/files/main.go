package main

import (
	"database/sql"
	"flag"
	"fmt"
	"os"
	"os/exec"

	"github.com/prometheus/client_golang/prometheus"
)

var (
	addr    string
	verbose bool
	requests = prometheus.NewCounter(prometheus.CounterOpts{Name: "tally_requests_total"})
)

func init() {
	flag.StringVar(&addr, "addr", ":8080", "listen address")
	flag.BoolVar(&verbose, "v", false, "verbose logging")
	sql.Register("tally-mem", memDriver{})
	prometheus.MustRegister(requests)
	if v := os.Getenv("TALLY_ADDR"); v != "" {
		addr = v
	}
}

func version() string {
	out, err := exec.Command("git", "describe", "--tags").Output()
	if err != nil {
		return "dev"
	}
	return string(out)
}

func main() {
	flag.Parse()
	fmt.Println("tally", version(), addr)
}
