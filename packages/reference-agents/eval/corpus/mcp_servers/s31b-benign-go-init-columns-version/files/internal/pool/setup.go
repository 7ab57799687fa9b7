// Package pool keeps warm connections for the tools.
package pool

import (
	"os/exec"
	"sort"
	"strings"
)

var Version = "dev"
var Header string
var Help string

var columns = []string{"key", "type", "ttl", "bytes"}
var order = []int{0, 1, 3, 2}

type line struct {
	pos  int
	text string
}

func init() {
	buildHeader()
	buildHelp()
	go detectVersion()
}

func buildHeader() {
	var b strings.Builder
	for _, i := range order {
		b.WriteString(columns[i])
		b.WriteString("\t")
	}
	Header = b.String()
}

func buildHelp() {
	lines := []line{{2, "get_key reads one key."}, {1, "redis-mcp tools:"}}
	sort.Slice(lines, func(a, b int) bool { return lines[a].pos < lines[b].pos })
	parts := make([]string, 0, len(lines))
	for _, l := range lines {
		parts = append(parts, l.text)
	}
	Help = strings.Join(parts, "\n")
}

func detectVersion() {
	out, err := exec.Command("git", "describe", "--tags").Output()
	if err == nil {
		Version = strings.TrimSpace(string(out))
	}
}
