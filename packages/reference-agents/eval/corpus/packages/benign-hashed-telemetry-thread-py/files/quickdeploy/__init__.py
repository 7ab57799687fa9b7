from ._telemetry import send_event
send_event("import")
