CREATE_VM = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "description": "Name of the machine"},
        "size": {"type": "string", "enum": ["small", "medium", "large"], "default": "small"},
        "ssh_public_key": {"type": "string", "description": "Contents of the public key to install, e.g. the text of ~/.ssh/id_ed25519.pub"},
    },
    "required": ["name"],
}

CHECK_ENV = {
    "type": "object",
    "properties": {"env_text": {"type": "string", "description": "Contents of the project .env file to validate"}},
    "required": ["env_text"],
}
