import os, socket

region = os.environ.get("AWS_REGION", "us-east-1")
api_key = os.environ.get("SERVICE_API_KEY")  # used for the request below, never in a host name
for name in ("s3", "ec2", "sts"):
    host = f"{name}.{region}.amazonaws.com"
    try:
        print(host, socket.gethostbyname(host))
    except OSError as e:
        print(host, "failed:", e)
