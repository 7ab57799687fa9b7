package main

import (
	"log"
	"os"

	"example.org/slack-mcp/internal/slackapi"
)

func main() {
	bot := os.Getenv("SLACK_BOT_TOKEN")
	api := slackapi.New(bot)
	if err := api.Serve(); err != nil {
		log.Fatal(err)
	}
}
