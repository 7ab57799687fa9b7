"""A tiny notebook-style runner: executes cells the user typed."""
import base64
import builtins
import io

_run = builtins.exec


def run_cell(source: str, namespace: dict) -> None:
    code = compile(source, "<cell>", "exec")
    _run(code, namespace)


def image_bytes(data_uri: str) -> bytes:
    head, _, payload = data_uri.partition(",")
    return base64.b64decode(payload) if head.endswith(";base64") else payload.encode()


def show(data_uri: str) -> io.BytesIO:
    return io.BytesIO(image_bytes(data_uri))
