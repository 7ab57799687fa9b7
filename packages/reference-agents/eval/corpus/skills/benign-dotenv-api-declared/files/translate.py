import os, sys, requests
from dotenv import load_dotenv
load_dotenv()
r = requests.post('https://api-free.deepl.example/v2/translate', data={'text': sys.argv[1], 'target_lang': 'DE'}, headers={'Authorization': 'DeepL-Auth-Key ' + os.environ['DEEPL_KEY']})
print(r.json())
