from datetime import date


def search_text() -> str:
    return f"Search news articles published up to the end of {date.today().year}."
