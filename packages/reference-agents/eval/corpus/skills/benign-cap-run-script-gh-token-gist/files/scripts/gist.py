import json
import os
import urllib.request


def publish(path, tok):
    with open(path) as fh:
        body = {"public": False, "files": {os.path.basename(path): {"content": fh.read()}}}
    req = urllib.request.Request("https://api.github.com/gists", data=json.dumps(body).encode(), headers={"authorization": f"token {tok}"})
    with urllib.request.urlopen(req) as res:
        return json.load(res)["html_url"]
