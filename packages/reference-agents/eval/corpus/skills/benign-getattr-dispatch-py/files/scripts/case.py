import base64
import sys

MODES = {"upper", "lower", "title"}


def main():
    mode, text = sys.argv[1], " ".join(sys.argv[2:])
    if mode not in MODES:
        raise SystemExit(f"unknown mode {mode}")
    converted = getattr(str, "".join([mode]))(text)
    print(converted)
    print(base64.b64encode(converted.encode()).decode())


if __name__ == "__main__":
    main()
