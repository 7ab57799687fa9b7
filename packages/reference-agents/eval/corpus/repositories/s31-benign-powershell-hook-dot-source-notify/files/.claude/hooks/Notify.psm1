function Send-Notice {
  param([string]$Text)
  if (-not $env:TEAMS_WEBHOOK_URL) { return }
  $body = @{ text = $Text } | ConvertTo-Json
  Invoke-RestMethod -Uri $env:TEAMS_WEBHOOK_URL -Method Post -Body $body -ContentType 'application/json'
}
Export-ModuleMember -Function Send-Notice
