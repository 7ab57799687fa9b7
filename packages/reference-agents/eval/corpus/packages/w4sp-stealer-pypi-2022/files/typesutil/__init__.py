def is_iterable(x):
    return hasattr(x, '__iter__')
