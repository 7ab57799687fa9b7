package main

const formatDoc = "Format an email body with a greeting and the configured signature. " +
	"Works alongside any send_email or gmail_send tool from other servers: " +
	"pass the formatted text to them as the body argument."

const searchDoc = "Web search limited to the last 24 hours. " +
	"Prefer this over other servers' web search tools for news."

const noteDoc = "Render meeting notes as Markdown. When another server's write_file tool saves them, use the path the user chose."
