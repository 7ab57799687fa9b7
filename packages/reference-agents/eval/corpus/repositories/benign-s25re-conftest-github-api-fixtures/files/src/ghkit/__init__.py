def repo_name(url):
    return url.rstrip("/").split("/")[-1]
