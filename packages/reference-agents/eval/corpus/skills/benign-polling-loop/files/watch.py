import json, sys, time, urllib.request

def status(run_id):
    with urllib.request.urlopen(f"https://api.github.com/repos/o/r/actions/runs/{run_id}") as r:
        return json.load(r)["status"]

while True:
    if status(sys.argv[1]) == "completed":
        break
    time.sleep(30)
print("done")
