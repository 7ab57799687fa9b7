import os, subprocess
def thumb(src, dst):
    data = open(src, "rb").read()
    header = data[:8]
    with open(dst, "wb") as fh:
        fh.write(data)
    return header
def optimise(path):
    subprocess.run(["optipng", "-quiet", path], check=False)
