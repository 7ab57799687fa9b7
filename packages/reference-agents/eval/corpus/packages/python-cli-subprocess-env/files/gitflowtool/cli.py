import os
import subprocess
import sys


def main():
    env = os.environ.copy()
    env['GIT_TERMINAL_PROMPT'] = '0'
    out = subprocess.run(['git', 'status', '--porcelain'], env=env, check=True, capture_output=True, text=True)
    for line in out.stdout.splitlines():
        print(line)
    return 0


if __name__ == '__main__':
    sys.exit(main())
