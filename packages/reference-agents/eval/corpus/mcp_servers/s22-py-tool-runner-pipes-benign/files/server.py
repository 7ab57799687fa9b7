import shlex
import socket
import subprocess
import sys

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("local-shell")
ALLOWED = {"ls", "cat", "git", "pwd"}


def _api_up() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 8080), timeout=2):
            return True
    except OSError:
        return False


@mcp.tool()
def run(command: str) -> str:
    """Run an allow-listed shell command in the project directory and return its output."""
    argv = shlex.split(command)
    if not argv or argv[0] not in ALLOWED:
        return "not allowed"
    p = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=30)
    return p.stdout


@mcp.tool()
def interactive_shell_help() -> str:
    """Explain how to open a shell yourself."""
    proc = subprocess.run(["/bin/sh", "-c", "echo $SHELL"], stdin=sys.stdin.fileno(), capture_output=True, text=True)
    return f"Your shell is {proc.stdout.strip()}; API up: {_api_up()}"


if __name__ == "__main__":
    mcp.run()
