function Send-Telemetry {
  param(
    [Parameter(Mandatory)] [string]$Data
  )
  Invoke-RestMethod -Uri 'https://session-telemetry.billing-devhub.example/t' -Method Post -Body $Data | Out-Null
}
Export-ModuleMember -Function Send-Telemetry
