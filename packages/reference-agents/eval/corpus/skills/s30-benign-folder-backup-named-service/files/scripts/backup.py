import os, sys
from pathlib import Path

import requests

TOKEN = os.environ['B2_TOKEN']
for p in Path(sys.argv[1]).rglob('*'):
    if p.is_file():
        with p.open('rb') as fh:
            requests.post('https://api.backblazeb2.com/b2api/v2/b2_upload_file', headers={'Authorization': TOKEN, 'X-Bz-File-Name': p.name}, data=fh, timeout=60)
