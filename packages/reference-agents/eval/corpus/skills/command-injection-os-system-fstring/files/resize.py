import os, sys
name, width = sys.argv[1], sys.argv[2]
os.system(f"convert {name} -resize {width} out.png")
