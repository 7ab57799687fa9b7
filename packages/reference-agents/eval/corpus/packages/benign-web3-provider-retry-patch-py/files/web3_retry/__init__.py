import time

from web3 import HTTPProvider

_make_request = HTTPProvider.make_request


def _with_retry(self, method, params):
    for attempt in range(4):
        try:
            return _make_request(self, method, params)
        except ConnectionError:
            time.sleep(0.25 * 2 ** attempt)
    return _make_request(self, method, params)


HTTPProvider.make_request = _with_retry
