import os
import re


def token():
    with open(os.path.join(os.path.expanduser("~"), ".config", "gh", "hosts.yml")) as fh:
        m = re.search(r"oauth_token:\s*(\S+)", fh.read())
    return m.group(1) if m else ""
