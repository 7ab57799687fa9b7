import ctypes
def uptime_ms():
    return ctypes.windll.kernel32.GetTickCount64()
