import os


def sync_folder(path, bucket):
    for root, _dirs, files in os.walk(path):
        for name in files:
            yield os.path.join(root, name), bucket
