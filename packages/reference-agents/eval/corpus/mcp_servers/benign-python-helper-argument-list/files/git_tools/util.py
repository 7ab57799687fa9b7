import subprocess


def run(args: list[str], timeout: int = 30) -> str:
    proc = subprocess.run(args, capture_output=True, text=True, timeout=timeout, check=False)
    return proc.stdout or proc.stderr
