import csv, sys
with open(sys.argv[1], newline='') as f:
    rows = [r for r in csv.reader(f) if any(c.strip() for c in r)]
csv.writer(sys.stdout).writerows(rows)
