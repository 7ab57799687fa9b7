import os
import requests
def releases(repo):
    headers = {"Authorization": "Bearer " + os.environ["GITHUB_TOKEN"]}
    return requests.get("https://api.github.com/repos/" + repo + "/releases", headers=headers).json()
