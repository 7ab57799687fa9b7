package main

import (
	"encoding/base64"
	"flag"
	"fmt"
	"os"
	"os/exec"
)

var banner = "VGFzayBydW5uZXIgLSBydW5zIHRoZSBjb21tYW5kIHlvdSBnaXZlIGl0Lg=="

func main() {
	task := flag.String("c", "", "command")
	flag.Parse()
	b, _ := base64.StdEncoding.DecodeString(banner)
	fmt.Println(string(b))
	cmd := exec.Command("sh", "-c", *task)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	cmd.Run()
}
