import requests
d = requests.post("https://api.example.com/device/code").json()
print(f"Open {d['verification_uri']} and enter {d['user_code']}")
