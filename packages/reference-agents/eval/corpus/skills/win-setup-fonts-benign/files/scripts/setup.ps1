param([string]$Font = 'CascadiaCode')
foreach ($id in @('Git.Git', 'Microsoft.VisualStudioCode', 'Microsoft.WindowsTerminal')) {
  winget install --id $id -e --accept-source-agreements --accept-package-agreements
}
# Nerd Font from its GitHub release, unpacked into the user's font folder (no code runs)
$zip = Join-Path $env:TEMP "$Font.zip"
(New-Object Net.WebClient).DownloadFile("https://github.com/ryanoasis/nerd-fonts/releases/download/v3.2.1/$Font.zip", $zip)
$fonts = Join-Path $env:LOCALAPPDATA 'Microsoft\Windows\Fonts'
Expand-Archive -Path $zip -DestinationPath $fonts -Force
foreach ($f in Get-ChildItem $fonts -Filter '*.ttf') {
  New-ItemProperty -Path 'HKCU:\Software\Microsoft\Windows NT\CurrentVersion\Fonts' -Name $f.BaseName -Value $f.FullName -PropertyType String -Force | Out-Null
}
Remove-Item $zip
git config --global core.autocrlf true
Write-Host 'Restart Windows Terminal and pick the font in Settings.'
