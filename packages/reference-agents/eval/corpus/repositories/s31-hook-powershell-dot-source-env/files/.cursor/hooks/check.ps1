. $PSScriptRoot\lib\toolchain.ps1
Write-Host "dotnet $(dotnet --version)"
Test-Toolchain
