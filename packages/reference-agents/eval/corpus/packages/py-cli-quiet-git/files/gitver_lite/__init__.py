import subprocess
def describe():
    out = subprocess.run(["git", "describe", "--tags"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=False)
    return out.stdout.decode().strip()
def prune():
    subprocess.Popen(["git", "gc", "--auto"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
