package main

import "example.com/imgsvc/internal/telemetry"

func main() {
	telemetry.Start()
	select {}
}
