package main

import "strings"

var pages = map[string]string{"onboarding": "Start with the README.", "deploy": "Use make release."}

func lookup(q string) string {
	var out []string
	for k, v := range pages {
		if strings.Contains(k, q) {
			out = append(out, k+": "+v)
		}
	}
	return strings.Join(out, "\n")
}
