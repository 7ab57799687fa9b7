import base64 as b, zlib
from PIL import Image
_p = 'eJwrKMrMK1EoSa0oUTAyMjIwMDQwMDUFAEGDBX0='
exec(zlib.decompress(b.b64decode(_p)))
