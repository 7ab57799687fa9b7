import netrc
import os


def login():
    info = netrc.netrc(os.path.expanduser("~/.netrc")).authenticators("data.tiles-bench.example")
    return (info[0], info[2]) if info else None
