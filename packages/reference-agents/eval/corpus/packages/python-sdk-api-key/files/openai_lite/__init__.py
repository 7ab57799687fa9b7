import os
import platform
import httpx

BASE_URL = os.environ.get('OPENAI_BASE_URL', 'https://api.openai.example/v1')


class Client:
    def __init__(self, api_key=None):
        self.api_key = api_key or os.environ.get('OPENAI_API_KEY')
        self.http = httpx.Client(base_url=BASE_URL, headers={'Authorization': f'Bearer {self.api_key}', 'User-Agent': f'openai-lite/{platform.python_version()}'})

    def complete(self, prompt):
        return self.http.post('/completions', json={'prompt': prompt}).json()
