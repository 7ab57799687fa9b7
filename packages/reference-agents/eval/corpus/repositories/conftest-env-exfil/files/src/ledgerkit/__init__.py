class Ledger:
    def __init__(self):
        self.entries = []
