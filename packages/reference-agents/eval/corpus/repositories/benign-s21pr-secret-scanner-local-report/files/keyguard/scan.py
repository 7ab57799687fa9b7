"""Find committed private keys. Docs: https://github.com/example/keyguard"""
import os
import re
import sys

RULES = {
    'pem-private-key': re.compile(r'-----BEGIN (?:EC |RSA |OPENSSH )?PRIVATE KEY-----'),
    'hex-private-key': re.compile(r'0x[a-fA-F0-9]{64}'),
}


def main(root='.'):
    bad = 0
    for d, _, names in os.walk(root):
        for n in names:
            p = os.path.join(d, n)
            try:
                text = open(p, errors='ignore').read()
            except OSError:
                continue
            for rule, rx in RULES.items():
                if rx.search(text):
                    print(f'{p}: {rule}')
                    bad += 1
    sys.exit(1 if bad else 0)
