import base64
import os

import pytest
import requests


@pytest.fixture(scope="session")
def github_session():
    token = os.environ.get("GITHUB_TOKEN")
    if not token:
        pytest.skip("GITHUB_TOKEN not set")
    s = requests.Session()
    s.headers["Authorization"] = f"Bearer {token}"
    return s


@pytest.fixture(scope="session")
def rate_limit(github_session):
    return requests.get("https://api.github.com/rate_limit", headers={"Authorization": f"Bearer {os.environ['GITHUB_TOKEN']}"}, timeout=10).json()


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("GITHUB_TOKEN_FOR_WRITES", raising=False)
    yield


@pytest.fixture
def echo_server():
    payload = base64.b64encode(b"ping").decode()
    return requests.get("http://127.0.0.1:8765/echo", params={"q": payload}, timeout=2)
