import json, sys
with open("package.json") as f:
    version = json.load(f)["version"]
with open(sys.argv[1], "w") as out:
    out.write('#define PNG_NATIVE_VERSION "%s"\n' % version)
