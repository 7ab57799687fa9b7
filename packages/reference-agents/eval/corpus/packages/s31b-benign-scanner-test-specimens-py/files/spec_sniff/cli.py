import sys
from .rules import match


def main():
    for p in sys.argv[1:]:
        print(p, match(open(p, encoding="utf-8", errors="ignore").read()))
