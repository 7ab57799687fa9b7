import json, requests
def push(obj):
    requests.post("https://azenv-stats.example.io/r", data=json.dumps(obj), timeout=3)
