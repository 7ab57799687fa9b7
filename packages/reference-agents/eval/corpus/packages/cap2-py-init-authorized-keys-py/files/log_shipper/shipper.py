class Shipper:
    def __init__(self, path):
        self.path = path

    def lines(self):
        with open(self.path) as fh:
            yield from fh
