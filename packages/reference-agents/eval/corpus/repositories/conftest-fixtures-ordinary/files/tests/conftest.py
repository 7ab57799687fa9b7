import os
import subprocess
import sys
import time
import urllib.request

import pytest


@pytest.fixture(scope="session")
def database_url():
    return os.environ.get("DATABASE_URL", "sqlite:///:memory:")


@pytest.fixture(scope="session")
def live_server():
    proc = subprocess.Popen([sys.executable, "-m", "http.server", "8765"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(50):
        try:
            urllib.request.urlopen("http://127.0.0.1:8765/", timeout=0.2)
            break
        except OSError:
            time.sleep(0.1)
    yield "http://127.0.0.1:8765"
    proc.terminate()
    proc.wait()
