import pickle
import sys

import torch

state = torch.load("encoder.pt", weights_only=True)
with open("norm.pkl", "rb") as f:
    norm = pickle.load(f)
print(len(open(sys.argv[1]).read()))
