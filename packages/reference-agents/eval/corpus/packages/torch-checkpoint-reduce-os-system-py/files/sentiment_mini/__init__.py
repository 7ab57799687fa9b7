from .model import load
