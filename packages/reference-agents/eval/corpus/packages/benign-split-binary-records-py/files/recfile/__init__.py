import os
import subprocess


def records(path):
    """Yield the records of a file whose records end with a 0x1e byte."""
    with open(path, "rb") as fh:
        data = fh.read()
    for rec in data.split(b"\x1e"):
        if rec:
            yield rec


def export(path, out):
    with open(out, "wb") as fh:
        for rec in records(path):
            fh.write(rec + b"\n")
    subprocess.run(["sort", "-o", out, out], check=True)
    os.chmod(out, 0o644)
