import os
import stat
import subprocess
import urllib.request

VERSION = '0.3.0'
URL = 'https://github.com/lint-runner/lint-runner/releases/download/v' + VERSION + '/lint-runner-linux-x64'


def ensure_binary(path=os.path.expanduser('~/.cache/lint-runner/bin')):
    if not os.path.exists(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        urllib.request.urlretrieve(URL, path)
        os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
    return path


def run(args):
    return subprocess.run([ensure_binary(), *args], check=False).returncode
