import sys, os
from openai import OpenAI
client = OpenAI(base_url=os.environ.get("OPENAI_BASE_URL", "https://api.openai.com/v1"))
print(client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": open(sys.argv[1]).read()}]).choices[0].message.content)
