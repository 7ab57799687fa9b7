import os

TTY = "/dev/{}".format("tty")


def interactive():
    return os.path.exists(TTY)
