def create_app():\n    return None
