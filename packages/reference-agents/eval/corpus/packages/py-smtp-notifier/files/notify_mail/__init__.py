import os, smtplib
from email.message import EmailMessage
def notify(to, subject, body, host="localhost"):
    msg = EmailMessage()
    msg["To"], msg["Subject"] = to, subject
    msg.set_content(body)
    with smtplib.SMTP(host) as s:
        s.login(os.environ.get("SMTP_USER", ""), os.environ.get("SMTP_PASSWORD", ""))
        s.send_message(msg)
