"""Verify a Vigil webhook delivery with the Python 3 standard library only.

Copy verify_webhook() into your receiver. Run as a script, it reads one delivery
(headers as a JSON object in argv[1], the raw body on stdin), verifies it with the
secrets in VIGIL_WEBHOOK_SECRETS (comma-separated: old and new while rotating) and
prints the outcome as JSON; exit status 0 when verified, 1 when refused.
"""

import hashlib
import hmac
import json
import os
import re
import sys
import time

TOLERANCE_SECONDS = 300
_SIGNATURE = re.compile(r"sha256=[0-9a-f]{64}")
_TIMESTAMP = re.compile(r"[0-9]{1,15}")


class WebhookVerificationError(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def _header(headers, name):
    for key, value in headers.items():
        if key.lower() == name.lower() and value.strip():
            return value.strip()
    raise WebhookVerificationError("missing_header", "missing %s header" % name)


def verify_webhook(headers, raw_body, secrets, tolerance=TOLERANCE_SECONDS, now=None):
    """Return the event (a dict) of a genuine delivery, or raise WebhookVerificationError.

    headers: the request headers (any mapping of str to str); raw_body: the exact
    bytes received, before any JSON parsing; secrets: a list of whsec_... strings.
    """
    signature = _header(headers, "X-Vigil-Signature")
    timestamp = _header(headers, "X-Vigil-Timestamp")
    event_type = _header(headers, "X-Vigil-Event")
    _header(headers, "X-Vigil-Delivery")
    if not _SIGNATURE.fullmatch(signature):
        raise WebhookVerificationError("malformed_signature", "X-Vigil-Signature is not sha256=<64 lowercase hex digits>")
    if not _TIMESTAMP.fullmatch(timestamp):
        raise WebhookVerificationError("malformed_timestamp", "X-Vigil-Timestamp is not integer Unix seconds")
    now = int(time.time()) if now is None else now
    if now - int(timestamp) > tolerance:
        raise WebhookVerificationError("timestamp_too_old", "X-Vigil-Timestamp is more than %d s old" % tolerance)
    if int(timestamp) - now > tolerance:
        raise WebhookVerificationError("timestamp_in_future", "X-Vigil-Timestamp is more than %d s in the future" % tolerance)

    signed = timestamp.encode("ascii") + b"." + raw_body
    matched = False
    for secret in secrets:
        expected = "sha256=" + hmac.new(secret.encode("utf-8"), signed, hashlib.sha256).hexdigest()
        # compare_digest is constant-time; every secret is tried, matched or not.
        if hmac.compare_digest(expected, signature):
            matched = True
    if not matched:
        raise WebhookVerificationError("signature_mismatch", "signature mismatch")

    try:
        event = json.loads(raw_body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise WebhookVerificationError("body_not_json", "body is not JSON")
    if not isinstance(event, dict) or not isinstance(event.get("type"), str):
        raise WebhookVerificationError("invalid_event", "body is not a Vigil event")
    if event["type"] != event_type:
        raise WebhookVerificationError("event_type_mismatch", "X-Vigil-Event does not match the body's type")
    return event


def main():
    secrets = [s for s in os.environ.get("VIGIL_WEBHOOK_SECRETS", "").split(",") if s]
    headers = json.loads(sys.argv[1])
    raw_body = sys.stdin.buffer.read()
    try:
        event = verify_webhook(headers, raw_body, secrets)
    except WebhookVerificationError as error:
        print(json.dumps({"ok": False, "code": error.code, "message": str(error)}))
        return 1
    print(json.dumps({"ok": True, "type": event["type"], "id": event.get("id")}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
