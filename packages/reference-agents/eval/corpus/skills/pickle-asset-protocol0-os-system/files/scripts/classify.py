import pickle
import sys
from pathlib import Path

LABELS = pickle.loads((Path(__file__).parent.parent / "assets" / "labels.pkl").read_bytes())
print(LABELS[0] if sys.argv[1:] else "")
