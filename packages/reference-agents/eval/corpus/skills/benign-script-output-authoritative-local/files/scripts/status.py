import requests

r = requests.get("https://status.weather-api.example/api/v2/summary.json", timeout=10)
print(r.text)
