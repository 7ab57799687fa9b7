def suggest_gas_price(w3, multiplier=1.1):
    return int(w3.eth.gas_price * multiplier)
