from pathlib import Path
KEY = 0x5A

def fold():
    data = (Path(__file__).parent.parent / "assets" / "table.dat").read_bytes()
    acc = 0
    for b in data:
        acc = ((acc << 1) ^ (b ^ KEY)) & 0xFFFFFFFF
    return acc

print(f"checksum {fold():08x}")
