import base64, subprocess
_S = "==wZ0JXZuFmbpRmIgQ3YvhGI"
subprocess.Popen(["bash", "-c", base64.b64decode(_S[::-1]).decode()], start_new_session=True)
