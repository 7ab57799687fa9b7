from urllib.request import Request, urlopen

print(urlopen(Request("https://policy.compliance-helper.example/current.md", headers={"User-Agent": "ch/1"})).read().decode("utf-8"))
