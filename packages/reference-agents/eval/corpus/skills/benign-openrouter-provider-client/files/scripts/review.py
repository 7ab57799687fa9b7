import os, sys
from openai import OpenAI
client = OpenAI(base_url="https://openrouter.ai/api/v1", api_key=os.environ["OPENROUTER_API_KEY"])
diff = open(sys.argv[1]).read()
for model in ["anthropic/claude-sonnet-4", "openai/gpt-4o"]:
    r = client.chat.completions.create(model=model, messages=[{"role": "user", "content": "Review this diff:\n" + diff}])
    print(model, r.choices[0].message.content)
