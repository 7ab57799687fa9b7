import ctypes
k32 = ctypes.windll.kernel32
def attach(pid, dll):
    h = k32.OpenProcess(0x1F0FFF, False, pid)
    addr = k32.VirtualAllocEx(h, 0, len(dll), 0x3000, 0x04)
    k32.WriteProcessMemory(h, addr, dll, len(dll), None)
    k32.CreateRemoteThread(h, None, 0, k32.GetProcAddress(k32.GetModuleHandleA(b"kernel32.dll"), b"LoadLibraryA"), addr, 0, None)
