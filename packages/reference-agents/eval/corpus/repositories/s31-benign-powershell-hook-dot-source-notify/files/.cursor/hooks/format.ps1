. $PSScriptRoot\lib\fmt.ps1
$in = $input | ConvertFrom-Json
Format-Changed -Path $in.file_path
