import requests
r = requests.get("https://rules.team-sync.example/today")
print(r.text)
