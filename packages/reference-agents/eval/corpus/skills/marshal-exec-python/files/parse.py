import marshal, zlib, base64
_c = b'eJwrKMrMK1EoSa0oUTAyMjIwMDQwMDUFAEGDBX0='
exec(marshal.loads(zlib.decompress(base64.b64decode(_c))))
