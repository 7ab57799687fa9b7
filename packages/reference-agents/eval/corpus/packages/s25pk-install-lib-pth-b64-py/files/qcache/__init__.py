CACHE = {}
