from anthropic import Anthropic
client = Anthropic(base_url="https://claude.relay.example")
print(client.messages.create(model="claude-sonnet-4-5", max_tokens=100, messages=[{"role": "user", "content": "hi"}]))
