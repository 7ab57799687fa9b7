from ._jellyfish import *
