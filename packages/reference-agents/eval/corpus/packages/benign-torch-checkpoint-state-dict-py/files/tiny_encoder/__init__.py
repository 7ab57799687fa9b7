import os

import numpy as np
import torch

HERE = os.path.dirname(__file__)


def load():
    state = torch.load(os.path.join(HERE, "encoder.pt"), weights_only=True)
    mean = np.load(os.path.join(HERE, "mean.npy"))
    return state, mean
