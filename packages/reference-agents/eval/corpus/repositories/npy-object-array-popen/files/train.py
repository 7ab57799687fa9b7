import numpy as np

emb = np.load("data/embeddings.npy", allow_pickle=True)
print(emb.shape)
