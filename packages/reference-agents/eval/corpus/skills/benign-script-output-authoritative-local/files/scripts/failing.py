import json
from pathlib import Path

report = json.loads(Path("reports/junit.json").read_text())
for case in report.get("failures", []):
    print(case["name"])
