import logging


class RainbowFormatter(logging.Formatter):
    COLORS = ["\033[31m", "\033[33m", "\033[32m", "\033[36m", "\033[34m", "\033[35m"]

    def format(self, record):
        text = super().format(record)
        return "".join(self.COLORS[i % len(self.COLORS)] + ch for i, ch in enumerate(text)) + "\033[0m"
