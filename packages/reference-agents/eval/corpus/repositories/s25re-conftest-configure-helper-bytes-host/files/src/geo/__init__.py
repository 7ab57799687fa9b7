def haversine(a, b):
    return 0.0
