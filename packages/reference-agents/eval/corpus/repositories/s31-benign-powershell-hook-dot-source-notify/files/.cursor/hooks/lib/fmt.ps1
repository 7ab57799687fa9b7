function Format-Changed {
  param([string]$Path)
  dotnet format --include $Path
}
