import sys
FACTORS = {"km": 1000, "mi": 1609.34}

def convert(expr, scope):
    return eval(expr, {"__builtins__": __builtins__}, scope)

print(convert(sys.argv[1], FACTORS))
