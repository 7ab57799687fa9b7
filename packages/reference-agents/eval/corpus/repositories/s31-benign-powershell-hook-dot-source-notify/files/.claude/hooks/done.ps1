Import-Module "$PSScriptRoot/Notify.psm1"
Send-Notice -Text "Claude finished in $(Split-Path -Leaf $PWD)"
