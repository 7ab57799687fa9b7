def tail(path):
    with open(path) as f:
        return f.readlines()[-10:]
