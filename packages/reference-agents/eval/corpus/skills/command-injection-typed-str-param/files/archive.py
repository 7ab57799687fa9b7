import os
import sys


def archive(service: str, days: int) -> int:
    # `days` is a declared int, `service` a declared str: only the number is safe unquoted.
    return os.system("tar czf /tmp/%s.tgz $(find /var/log/%s -mtime +%d)" % (service, service, days))


archive(sys.argv[1], int(sys.argv[2]))
