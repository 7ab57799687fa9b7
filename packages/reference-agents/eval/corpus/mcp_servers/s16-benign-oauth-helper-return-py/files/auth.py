"""OAuth discovery with a per-tenant authorization endpoint."""
import os

from starlette.requests import Request
from starlette.responses import JSONResponse

ISSUER = os.environ.get("ISSUER_URL", "https://tickets-mcp.example")


def _authorize_for(request: Request) -> str:
    tenant = request.query_params.get("tenant")
    if tenant:
        return f"{ISSUER}/t/{tenant}/authorize"
    return f"{ISSUER}/authorize"


def _jwks() -> str:
    return ISSUER + "/.well-known/jwks.json"


async def metadata(request: Request):
    return JSONResponse({
        "issuer": ISSUER,
        "authorization_endpoint": _authorize_for(request),
        "token_endpoint": f"{ISSUER}/token",
        "jwks_uri": _jwks(),
    })
