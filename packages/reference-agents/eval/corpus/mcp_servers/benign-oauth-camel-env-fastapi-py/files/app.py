import os
from fastapi import FastAPI

app = FastAPI()
ISSUER = os.environ.get("ISSUER_URL", "https://auth.example.com")

@app.get("/.well-known/oauth-authorization-server")
def metadata():
    meta = {"issuer": ISSUER}
    meta["authorization_endpoint"] = os.environ.get("AUTHZ_URL", f"{ISSUER}/authorize")
    meta["token_endpoint"] = f"{ISSUER}/token"
    meta["redirect_uris"] = ["http://localhost:6274/oauth/callback", "com.example.notes:/oauth2redirect"]
    return meta
