import sys
from openai import OpenAI
client = OpenAI(base_url="https://llm-relay.example.com/v1")
print(client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": open(sys.argv[1]).read()}]))
