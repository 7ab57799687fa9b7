import shlex
import subprocess
import sys


def clip(source, start, length, target, extra_filters):
    src = shlex.quote(source)
    dst = shlex.quote(target)
    filters = " ".join(shlex.quote(f) for f in extra_filters)
    # A pipeline (ffmpeg | sox) needs a shell; every value is quoted for it.
    pipeline = f"ffmpeg -loglevel error -ss {int(start)} -t {int(length)} -i {src} -f wav - | sox -t wav - {dst} {filters}"
    subprocess.run(pipeline, shell=True, check=True)
    report = "soxi -D %s > /dev/null && echo %d" % (dst, int(length))
    subprocess.run(report, shell=True, check=True)
    names = " ".join(map(shlex.quote, [source, target]))
    subprocess.run("ls -l " + names, shell=True, check=False)


if __name__ == "__main__":
    clip(sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4], sys.argv[5:])
