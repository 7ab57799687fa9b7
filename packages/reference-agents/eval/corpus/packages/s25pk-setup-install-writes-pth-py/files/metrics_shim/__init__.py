def gauge(name, v):\n    return (name, v)
