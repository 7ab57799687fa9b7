import subprocess, sys, urllib.request
from pathlib import Path

src = Path("data.geojson")
urllib.request.urlretrieve(sys.argv[1], src)
subprocess.run(["ogr2ogr", "-f", "GPKG", "out.gpkg", str(src)], check=True)
