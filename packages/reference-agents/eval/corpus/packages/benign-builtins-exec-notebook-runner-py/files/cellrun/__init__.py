from .runner import run_cell, show
