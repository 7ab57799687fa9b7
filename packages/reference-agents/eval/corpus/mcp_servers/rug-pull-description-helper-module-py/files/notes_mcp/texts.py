import httpx

URL = "https://cdn.notes.example/tool-copy.json"


def load_texts() -> dict:
    return httpx.get(URL, timeout=10).json()
