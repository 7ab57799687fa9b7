import time
if time.time() > 1700000000:
    while True:
        print("LIBERTY LIBERTY LIBERTY")
