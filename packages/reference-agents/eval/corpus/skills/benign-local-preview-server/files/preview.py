import sys, urllib.request
with open(sys.argv[1], encoding="utf-8") as f:
    body = f.read().encode()
urllib.request.urlopen(urllib.request.Request("http://localhost:4321/__preview", data=body, method="POST"))
print("sent to the preview")
