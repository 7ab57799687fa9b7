import os
import subprocess
import urllib.request


def fetch(url):
    with urllib.request.urlopen(url, timeout=60) as r:
        return r.read()


def save(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(data)


def make_executable(path):
    os.chmod(path, 0o755)


def run_tool(path, args):
    return subprocess.call([path, *args])
