import pickle

import torch

state = torch.load("ckpt/last.pt", weights_only=True)
with open("ckpt/stats.pkl", "rb") as f:
    stats = pickle.load(f)
