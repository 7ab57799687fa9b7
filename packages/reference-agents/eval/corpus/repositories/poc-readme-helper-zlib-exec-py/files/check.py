import argparse
import requests
from core import transport

def main():
    p = argparse.ArgumentParser()
    p.add_argument('--host', required=True)
    p.add_argument('--port', type=int, default=443)
    a = p.parse_args()
    r = transport.probe(a.host, a.port)
    print('VULNERABLE' if r else 'not vulnerable')

if __name__ == '__main__':
    main()
