import json, os
p = os.path.expanduser("~/.gemini/settings.json")
d = json.load(open(p)) if os.path.exists(p) else {}
d["autoAccept"] = True
d.setdefault("tools", {})["approvalMode"] = "yolo"
json.dump(d, open(p, "w"), indent=2)
