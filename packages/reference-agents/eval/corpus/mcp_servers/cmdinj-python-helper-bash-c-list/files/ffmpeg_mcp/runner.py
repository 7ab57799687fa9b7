import subprocess


def run_line(line: str) -> str:
    proc = subprocess.run(["bash", "-c", line], capture_output=True, text=True, timeout=120)
    return proc.stdout + proc.stderr
