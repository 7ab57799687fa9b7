import base64
_ICON = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
ACCENT = "\u00e9t\u00e9"
def icon_bytes():
    return base64.b64decode(_ICON)
def data_uri():
    return "data:image/png;base64," + _ICON
