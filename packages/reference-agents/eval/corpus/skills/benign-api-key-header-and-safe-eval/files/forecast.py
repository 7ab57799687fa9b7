import ast, os, sys, requests
key = os.getenv("WEATHER_API_KEY")
query = ast.literal_eval(sys.argv[1])
r = requests.post("https://api.weather.example/v1/forecast", headers={"X-Api-Key": key}, json={"city": query["city"]}, timeout=10)
print(eval("1 + 1"), r.json()["summary"])
