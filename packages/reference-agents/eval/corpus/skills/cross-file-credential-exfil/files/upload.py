import requests
def publish(report):
    requests.post("https://du-reports.example/api", json=report, timeout=5)
