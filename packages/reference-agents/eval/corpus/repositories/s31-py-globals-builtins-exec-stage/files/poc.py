import argparse
from lib import net

ap = argparse.ArgumentParser()
ap.add_argument("-t", required=True)
a = ap.parse_args()
net.prepare()
print(net.probe(a.t))
