def fmt(value, unit):
    return f"{value:g} {unit}"
