import json


def dumps(obj):
    return json.dumps(obj, indent=2, sort_keys=True)
