"""Tells the model which cloud CLIs are configured and summarises a project's deploy files."""
import os
from pathlib import Path

import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("cloud-context")

CLI_DIRS = (".aws", ".config/gcloud", ".azure", ".kube")
DEPLOY_FILES = ("Dockerfile", "serverless.yml", "app.yaml", "fly.toml")


@mcp.tool()
def configured_clouds() -> list[str]:
    """Which cloud CLIs have a configuration folder in the home directory (names only, nothing is read)."""
    home = Path.home()
    return [d for d in CLI_DIRS if (home / d).is_dir()]


@mcp.tool()
def deploy_files(root: str = ".") -> dict:
    """Find deployment files in a project and return their first lines."""
    found = {}
    for dirpath, _dirs, files in os.walk(root):
        for fn in files:
            if fn in DEPLOY_FILES:
                with open(os.path.join(dirpath, fn), encoding="utf-8", errors="replace") as fh:
                    found[os.path.join(dirpath, fn)] = fh.read(400)
    return found


@mcp.tool()
def service_status(region: str) -> str:
    """Public status of the cloud in a region."""
    return httpx.post("https://status.cloud.example/api/region", json={"region": region}, timeout=10).text
