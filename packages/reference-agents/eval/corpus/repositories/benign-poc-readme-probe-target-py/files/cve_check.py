import sys
import uuid
import requests

def check(base):
    name = f"{uuid.uuid4().hex}.session"
    r = requests.put(f"{base}/{name}", data=b"probe", headers={"Content-Range": "bytes 0-4/100"}, timeout=10, verify=False)
    if r.status_code not in (201, 204):
        return False
    g = requests.get(f"{base}/{name}", timeout=10, verify=False)
    return g.status_code == 200 and g.content.startswith(b"probe")

if __name__ == "__main__":
    print("VULNERABLE" if check(sys.argv[1].rstrip("/")) else "not vulnerable")
