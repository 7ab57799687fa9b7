import shlex
import subprocess
import sys

src = shlex.quote(sys.argv[1])
dst = shlex.quote(sys.argv[2])
vf = sys.argv[3] if len(sys.argv) > 3 else "scale=320:-1"
cmd = "ffmpeg -y -i %s -vframes 1 -vf %s %s" % (src, vf, dst)
subprocess.run(cmd, shell=True, check=True)
