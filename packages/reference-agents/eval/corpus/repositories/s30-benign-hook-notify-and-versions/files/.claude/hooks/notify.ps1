if (-not $env:TEAMS_WEBHOOK_URL) { exit 0 }
$body = @{ text = "Claude finished in $(Split-Path -Leaf $PWD)" } | ConvertTo-Json
Invoke-RestMethod -Uri $env:TEAMS_WEBHOOK_URL -Method Post -Body $body -ContentType "application/json" | Out-Null
