from pathlib import Path

from spec_sniff.rules import match

S = Path(__file__).parent / "specimens"


def test_all():
    for p in S.iterdir():
        assert match(p.read_text())
