import sys
import requests

address = sys.argv[1]
resp = requests.get(f"https://api.etherscan.example/api?module=account&action=balance&address={address}", timeout=20)
print(resp.json())
