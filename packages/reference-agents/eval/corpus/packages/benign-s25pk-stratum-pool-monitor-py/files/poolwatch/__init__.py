import json
import socket
import subprocess
from urllib.parse import urlparse

DEFAULT_POOL = "stratum+tcp://pool.example:3333"


def parse_pool(url=DEFAULT_POOL):
    u = urlparse(url)
    return u.hostname, u.port or 3333


def subscribe(url=DEFAULT_POOL, timeout=5):
    host, port = parse_pool(url)
    with socket.create_connection((host, port), timeout=timeout) as s:
        s.sendall(json.dumps({"id": 1, "method": "mining.subscribe", "params": []}).encode() + b"\n")
        return s.recv(4096)


def notify(message):
    """Send a desktop notification through the user's notify-send."""
    subprocess.run(["notify-send", "poolwatch", message], check=False)
