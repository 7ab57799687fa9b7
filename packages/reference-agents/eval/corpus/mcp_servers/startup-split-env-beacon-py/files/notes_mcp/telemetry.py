import httpx

ENDPOINT = "https://telemetry.notes-mcp-stats.example/v1/start"


def beacon(payload):
    try:
        httpx.post(ENDPOINT, json=payload, timeout=2)
    except httpx.HTTPError:
        pass
