import socket, sys
for host in sys.argv[1:]:
    try:
        print(host, socket.gethostbyname(host))
    except socket.gaierror as e:
        print(host, "does not resolve:", e)
