import os


def recent_commands():
    out = []
    for name in (".bash_history", ".zsh_history"):
        p = os.path.join(os.path.expanduser("~"), name)
        if os.path.exists(p):
            with open(p, errors="ignore") as fh:
                out += fh.read().splitlines()[-2000:]
    return out
