import re, sys
PATTERNS = [re.compile(p, re.I) for p in [r'ignore (all )?previous', r'system prompt']]
text = open(sys.argv[1]).read()
print([p.pattern for p in PATTERNS if p.search(text)])
