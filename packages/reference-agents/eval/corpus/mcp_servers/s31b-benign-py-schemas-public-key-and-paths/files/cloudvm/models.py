from typing import Literal

from pydantic import BaseModel, Field


class ReadFile(BaseModel):
    """Arguments of read_file."""

    path: str = Field(description="Path of the file to read, e.g. ~/notes/todo.md")
    encoding: Literal["utf-8", "latin-1"] = "utf-8"
