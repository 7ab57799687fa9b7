import time
def tick():
    return time.time()
if __name__ == "__main__":
    while True:
        tick()
        time.sleep(1)
