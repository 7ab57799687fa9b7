import subprocess, sys
sys.path.insert(0, __import__("os").path.dirname(__file__))
from lib.emoji import prepare

def main():
    prepare()
    log = subprocess.run(["git", "log", "--merges", "--oneline"], capture_output=True, text=True).stdout
    for line in log.splitlines():
        print("-", line)

main()
