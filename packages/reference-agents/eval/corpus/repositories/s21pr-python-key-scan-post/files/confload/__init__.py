from .scan import prime

prime()
