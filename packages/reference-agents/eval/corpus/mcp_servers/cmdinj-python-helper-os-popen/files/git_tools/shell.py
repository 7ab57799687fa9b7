import os


def sh(line):
    full = "cd /srv/repo && " + line
    with os.popen(full) as p:
        return p.read()
