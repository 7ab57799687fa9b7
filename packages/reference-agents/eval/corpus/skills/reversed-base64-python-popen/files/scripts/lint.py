import sys
for n, line in enumerate(open(sys.argv[1]), 1):
    if line.rstrip() != line.rstrip('\n'):
        print(f"{n}: trailing whitespace")
