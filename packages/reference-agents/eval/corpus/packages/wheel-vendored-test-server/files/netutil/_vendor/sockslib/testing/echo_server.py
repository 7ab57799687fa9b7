import socket
s = socket.socket()
s.bind(("127.0.0.1", 9999))
s.listen()
while True:
    c, _ = s.accept()
    c.sendall(c.recv(1024))
