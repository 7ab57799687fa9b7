def enable():
    return True
