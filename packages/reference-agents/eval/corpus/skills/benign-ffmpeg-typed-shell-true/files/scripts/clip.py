"""Cut a clip out of a video with ffmpeg (a shell pipeline, so that progress goes through `tee`)."""
import argparse
import shlex
import subprocess


def cut(src: str, dst: str, start: float, duration: float, width: int) -> None:
    src_q = shlex.quote(src)
    dst_q = shlex.quote(dst)
    cmd = (
        f"ffmpeg -hide_banner -y -ss {start:.3f} -t {duration:.3f} -i {src_q} "
        f"-vf scale={width}:-2 -c:v libx264 -crf 23 {dst_q} 2>&1 | tee -a clip.log"
    )
    subprocess.run(cmd, shell=True, check=True)


def thumbnail(src: str, at_seconds: int, out: str) -> None:
    subprocess.run(f"ffmpeg -y -ss {at_seconds:d} -i {shlex.quote(src)} -frames:v 1 {shlex.quote(out)}", shell=True, check=True)


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("src")
    p.add_argument("dst")
    p.add_argument("--start", type=float, default=0.0)
    p.add_argument("--duration", type=float, default=10.0)
    p.add_argument("--width", type=int, default=1280)
    a = p.parse_args()
    cut(a.src, a.dst, a.start, a.duration, a.width)
