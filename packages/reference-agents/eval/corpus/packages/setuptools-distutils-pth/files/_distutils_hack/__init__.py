import sys
import os


def add_shim():
    sys.meta_path.insert(0, object())
