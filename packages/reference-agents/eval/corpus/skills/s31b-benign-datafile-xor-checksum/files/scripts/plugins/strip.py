print("strip trailing whitespace")
