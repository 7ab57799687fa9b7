from .colours import colour
