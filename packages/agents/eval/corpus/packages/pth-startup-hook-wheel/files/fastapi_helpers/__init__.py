def ok():
    return True
