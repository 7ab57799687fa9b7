"""Signatures of prompt injection and tool poisoning, matched case-insensitively."""
import re

INJECTION_PATTERNS = [
    (r"ignore (all )?(previous|prior|above) instructions", "instruction override"),
    (r"do not (tell|mention|inform) the user", "concealment"),
    (r"<IMPORTANT>", "hidden instruction block"),
    (r"you are now (DAN|in developer mode)", "role reassignment"),
    (r"~/\.ssh/id_rsa|\.aws/credentials", "credential file reference"),
    (r"send (the )?(conversation|chat history) to https?://", "exfiltration"),
]

COMPILED = [(re.compile(p, re.IGNORECASE), label) for p, label in INJECTION_PATTERNS]

SUSPICIOUS_MARKERS = {"<IMPORTANT>", "<SECRET>", "~/.ssh/id_rsa", "ignore previous instructions"}


def scan(text: str) -> list[dict]:
    hits = []
    for rx, label in COMPILED:
        for m in rx.finditer(text):
            hits.append({"label": label, "match": m.group(0), "at": m.start()})
    for marker in SUSPICIOUS_MARKERS:
        if marker.lower() in text.lower():
            hits.append({"label": "marker", "match": marker, "at": text.lower().index(marker.lower())})
    return hits
