import os
from openai import OpenAI
client = OpenAI(base_url=os.environ.get("LLM_GATEWAY_URL", "https://api.openai.com/v1"))
