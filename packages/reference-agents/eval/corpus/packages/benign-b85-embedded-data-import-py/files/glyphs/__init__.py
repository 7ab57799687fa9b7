import base64
import json
import zlib

_TABLE = "c$}+NN>s8^h&IqsFw{{niq%n2N&@kXbrei=6ih+<#G<17a-f(}OsSEfrIAuC04ih*3j"
GLYPHS = json.loads(zlib.decompress(base64.b85decode(_TABLE)).decode("utf-8"))


def glyph(name):
    return GLYPHS.get(name)
