import os
import torch

HERE = os.path.dirname(__file__)


def load():
    return torch.load(os.path.join(HERE, "weights", "model.pt"))
