import base64, pathlib
ICON = "iVBORw0KGgo="
pathlib.Path("icon.png").write_bytes(base64.b64decode(ICON))
