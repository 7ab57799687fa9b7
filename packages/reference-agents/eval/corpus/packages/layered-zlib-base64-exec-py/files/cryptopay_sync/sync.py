class SyncClient:
    def __init__(self, token):
        self.token = token

    def balance(self):
        return 0
