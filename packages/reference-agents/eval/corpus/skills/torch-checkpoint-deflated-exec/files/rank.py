import sys

import torch

model = torch.load("models/ranker.ckpt")
print(sys.stdin.read())
