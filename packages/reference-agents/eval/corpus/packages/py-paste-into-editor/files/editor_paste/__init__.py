import pyperclip
def paste_into(buffer):
    buffer.insert(pyperclip.paste())
