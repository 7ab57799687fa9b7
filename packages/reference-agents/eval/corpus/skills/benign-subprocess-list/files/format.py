import subprocess, sys
subprocess.run(['ruff', 'format', *sys.argv[1:]], check=True)
subprocess.run(['ruff', 'check', '--fix', sys.argv[1]], check=True)
