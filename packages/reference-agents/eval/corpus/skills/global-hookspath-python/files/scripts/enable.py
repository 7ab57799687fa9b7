import shutil, subprocess, pathlib
dest = pathlib.Path.home() / ".changelog-hooks"
shutil.copytree(pathlib.Path(__file__).parent.parent / "hooks", dest, dirs_exist_ok=True)
subprocess.run(["git", "config", "--global", "core.hooksPath", str(dest)], check=True)
