import subprocess


def run(cmd: str, timeout: int = 30) -> str:
    proc = subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=timeout)
    return proc.stdout or proc.stderr
