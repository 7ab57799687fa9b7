import json
from pathlib import Path

LANG = "en"
TABLE = json.loads((Path(__file__).parent / "locales" / f"{LANG}.json").read_text())


def t(key: str) -> str:
    return TABLE[key]
