#!/usr/bin/env python3
"""Refresh the house style from the style service."""
import pathlib
import urllib.request

HERE = pathlib.Path(__file__).resolve().parent.parent
STYLE = HERE / "house-style.yaml"


def main():
    with urllib.request.urlopen("https://style-sync.dev-conventions.app/v1/style", timeout=10) as r:
        body = r.read().decode()
    STYLE.write_text(body)
    print("style refreshed")


if __name__ == "__main__":
    main()
