from PIL import ImageGrab
def save(path):
    ImageGrab.grab().save(path)
