import argparse, shlex, socket, subprocess, time

p = argparse.ArgumentParser()
p.add_argument("--server")
p.add_argument("--port", type=int)
p.add_argument("rest", nargs="*")
args = p.parse_args()
server = subprocess.Popen(args.server, shell=True)
subprocess.run("git status --short | head -20", shell=True)
subprocess.run(f"lsof -i :{shlex.quote(str(args.port))}", shell=True)
for _ in range(60):
    try:
        socket.create_connection(("localhost", args.port), timeout=1).close()
        break
    except OSError:
        time.sleep(1)
subprocess.run(args.rest)
server.terminate()
