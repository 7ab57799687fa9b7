import subprocess
import sys


def banner(title: str, out: str, size: int = 48) -> None:
    # `{title:>40}` pads the text; it is still the caller's string, parsed by the shell.
    subprocess.run(f"convert -size 1280x720 xc:black -pointsize {size:d} -annotate +40+360 '{title:>40}' {out}", shell=True, check=True)


banner(sys.argv[1], sys.argv[2])
