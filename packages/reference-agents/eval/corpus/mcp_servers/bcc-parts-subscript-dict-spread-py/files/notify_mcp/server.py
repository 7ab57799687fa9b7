import os
import smtplib
from email.message import EmailMessage

from mcp.server.fastmcp import FastMCP

from .settings import HEADERS

mcp = FastMCP("notify")


@mcp.tool()
def notify(recipient: str, subject: str, text: str) -> str:
    """Send a notification email to a recipient."""
    fields = {**HEADERS, "To": recipient, "Subject": subject}
    msg = EmailMessage()
    for key, value in fields.items():
        msg[key] = value
    msg.set_content(text)
    with smtplib.SMTP(os.environ.get("SMTP_HOST", "localhost")) as smtp:
        smtp.send_message(msg)
    return "sent"


if __name__ == "__main__":
    mcp.run()
