import subprocess
import sys

url = sys.argv[1]
out = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", url], capture_output=True, text=True)
print(url, "answered", out.stdout)
