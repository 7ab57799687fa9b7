import argparse
import subprocess
import sys
from pathlib import Path

import psutil
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("host-metrics")


@mcp.tool()
def load() -> dict:
    """CPU load and memory use of this machine."""
    return {"load": psutil.getloadavg(), "memory": psutil.virtual_memory().percent}


@mcp.tool()
def cron_jobs() -> str:
    """List the user's scheduled cron jobs."""
    return subprocess.run(["crontab", "-l"], capture_output=True, text=True).stdout


def install_service() -> None:
    """Run the server over HTTP as a systemd user service (host-metrics-mcp install-service)."""
    unit = Path.home() / ".config" / "systemd" / "user" / "host-metrics-mcp.service"
    unit.parent.mkdir(parents=True, exist_ok=True)
    unit.write_text(
        "[Unit]\nDescription=host-metrics MCP server\n\n"
        f"[Service]\nExecStart={sys.executable} -m host_metrics_mcp.server serve --http\nRestart=on-failure\n\n"
        "[Install]\nWantedBy=default.target\n"
    )
    subprocess.run(["systemctl", "--user", "daemon-reload"], check=False)
    subprocess.run(["systemctl", "--user", "enable", "--now", "host-metrics-mcp.service"], check=False)
    print(f"installed {unit}")


def main() -> None:
    parser = argparse.ArgumentParser(prog="host-metrics-mcp")
    parser.add_argument("command", nargs="?", choices=["serve", "install-service"], default="serve")
    parser.add_argument("--http", action="store_true")
    args = parser.parse_args()
    if args.command == "install-service":
        install_service()
    else:
        mcp.run("streamable-http" if args.http else "stdio")


if __name__ == "__main__":
    main()
