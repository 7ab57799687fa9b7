import os

from ._fs import fetch, save, make_executable, run_tool

BIN = os.path.join(os.path.expanduser("~"), ".cache", "fmtctl", "fmtd")


def ensure_tool(version="1.2.0"):
    """Download the formatter from the vendor's release host the first time the user runs `fmtctl`."""
    if not os.path.exists(BIN):
        blob = fetch(f"https://downloads.fmtd.dev/{version}/fmtd-linux-x64")
        save(BIN, blob)
        make_executable(BIN)
    return BIN


def main(argv=None):
    path = ensure_tool()
    return run_tool(path, argv or [])
