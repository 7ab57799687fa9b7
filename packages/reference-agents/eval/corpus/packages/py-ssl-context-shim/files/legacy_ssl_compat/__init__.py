import ssl
import json
if not hasattr(ssl, "_create_default_https_context"):
    ssl._create_default_https_context = ssl.create_default_context
json.JSONEncoder.item_separator = ", "
