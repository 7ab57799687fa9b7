HOOK = "https://discord.com/api/webhooks/1187262520000000000/kT3xQz9vRmW2bLp7nY4cF8dJ1sH6gA0eU5iO"
