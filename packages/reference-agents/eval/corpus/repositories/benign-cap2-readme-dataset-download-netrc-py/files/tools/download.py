import argparse
import urllib.request
import base64

from auth import login


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--split", default="val")
    args = ap.parse_args()
    user, password = login()
    token = base64.b64encode(f"{user}:{password}".encode()).decode()
    req = urllib.request.Request(f"https://data.tiles-bench.example/tiles-2m/{args.split}.tar", headers={"Authorization": f"Basic {token}"})
    with urllib.request.urlopen(req) as res, open(f"{args.split}.tar", "wb") as out:
        out.write(res.read())


if __name__ == "__main__":
    main()
