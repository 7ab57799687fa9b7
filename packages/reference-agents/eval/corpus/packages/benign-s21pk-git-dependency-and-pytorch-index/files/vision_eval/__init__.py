def iou(a, b):
    return 0.0
