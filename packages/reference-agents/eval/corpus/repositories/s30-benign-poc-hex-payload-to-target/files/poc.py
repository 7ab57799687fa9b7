import argparse, socket

PACKET = (
    "30840000001002010163840000000704000a010030840000"
    "001002010163840000000704000a01003084000000100201"
    "0163840000000704000a0100"
)

ap = argparse.ArgumentParser()
ap.add_argument("--target", required=True)
a = ap.parse_args()
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.settimeout(3)
s.sendto(bytes.fromhex(PACKET), (a.target, 389))
try:
    print(len(s.recvfrom(65535)[0]), "bytes")
except socket.timeout:
    print("no answer")
