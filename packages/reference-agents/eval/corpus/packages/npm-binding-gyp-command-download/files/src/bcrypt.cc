// bcrypt
